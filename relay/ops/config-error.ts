/**
 * A config the operator must fix, said in one line by the CLI. A file of its own, without zod, so the CLI's
 * error handling (relay/cli/plain-errors.ts) does not load the config's schemas: every CLI call loads it.
 */
export class RelayConfigError extends Error {
  override name = 'RelayConfigError';
}
