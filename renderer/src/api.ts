/**
 * The renderer's only way to the till core: `window.momo` (the preload in the app, the test bridge
 * in browser tests). Both unwrap the core's envelope, so a failed call rejects with `{ code, message,
 * field? }`; anything else is turned into a message a cashier can act on, never a stack trace.
 */
import type { IpcChannel, IpcRequest, IpcResponse, MomoApi } from '../../shared/ipc/contract';

declare global {
  interface Window {
    momo: MomoApi;
  }
}

export class MomoCallError extends Error {
  override name = 'MomoCallError';
  constructor(
    readonly code: string,
    message: string,
    /** The input the core blames (e.g. "secretKey"), when it says. */
    readonly field?: string,
  ) {
    super(message);
  }
}

const FALLBACK = 'The till could not do that just now. Try again; if it keeps happening, restart the till.';

/** The `{ code, message, field? }` a failed call rejects with, or the fallback for anything else. */
export function toCallError(error: unknown): MomoCallError {
  if (error instanceof MomoCallError) return error;
  const { code, message, field } = (error ?? {}) as { code?: unknown; message?: unknown; field?: unknown };
  if (typeof code === 'string' && typeof message === 'string') {
    return new MomoCallError(code, message, typeof field === 'string' ? field : undefined);
  }
  return new MomoCallError('ERROR', FALLBACK);
}

const refusedListeners = new Set<() => void>();

/**
 * Called whenever the core refuses a call as not allowed (FORBIDDEN): the till may have locked (idle, a
 * laptop's sleep, a clock jump) without the screens knowing yet, so the shell reads the status again and
 * shows the sign-in rather than leaving a screen with a refusal. Returns the function that stops listening.
 */
export function onRefused(listener: () => void): () => void {
  refusedListeners.add(listener);
  return () => void refusedListeners.delete(listener);
}

export async function call<C extends IpcChannel>(channel: C, payload: IpcRequest<C>): Promise<IpcResponse<C>> {
  if (!window.momo) throw new MomoCallError('NO_BRIDGE', 'The till is not connected to its core. Restart the till.');
  try {
    return await window.momo.invoke(channel, payload);
  } catch (error) {
    const failure = toCallError(error);
    if (failure.code === 'FORBIDDEN') for (const listener of refusedListeners) listener();
    throw failure;
  }
}

export function errorMessage(error: unknown): string {
  return toCallError(error).message;
}

export const onEvent: MomoApi['on'] = (event, listener) => {
  if (!window.momo) return () => undefined;
  return window.momo.on(event, listener);
};
