/** Errors the core throws to its callers: a code and a message a person can act on, never a stack. */
export type CoreErrorCode =
  | 'INVALID_REQUEST'
  | 'UNKNOWN_CHANNEL'
  | 'FORBIDDEN'
  | 'WRONG_PIN'
  | 'PIN_LOCKED'
  | 'PIN_INVALID'
  | 'PIN_TAKEN'
  | 'NAME_TAKEN'
  | 'KEYCHAIN_UNAVAILABLE'
  | 'SETTINGS_INVALID'
  | 'LIVE_NOT_READY'
  | 'NOT_FOUND'
  | 'NOT_FINAL'
  | 'ALREADY_CLOSED'
  | 'CLOSED'
  | 'INTERNAL';

export class CoreError extends Error {
  override name = 'CoreError';
  constructor(
    readonly code: CoreErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The plain `{ code, message }` that crosses to callers (IPC, the test bridge): no stack, no cause. */
export function toPlainError(error: unknown): { code: string; message: string } {
  if (error instanceof CoreError) return { code: error.code, message: error.message };
  return { code: 'INTERNAL', message: 'Something went wrong in the till. Try again; if it keeps happening, restart the app.' };
}
