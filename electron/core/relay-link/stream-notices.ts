/**
 * What the relay's stream says about the till's cursor before its events: `hello` (the log's id and last
 * sequence) and `reset` (the stream reads on from elsewhere than the cursor: the log was restored past it,
 * or pruned). Each returns true when the cursor changed, so the till catches up again before following.
 */
import { relayHelloSchema, relayResetSchema } from '../../../shared/relay-wire.js';
import type { Environment } from '../../../shared/domain.js';
import type { Logger } from '../logger.js';
import type { RelayCursor } from './relay-cursor.js';

function parse(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

export function onHello(cursor: RelayCursor, log: Logger, environment: Environment, data: string): boolean {
  const hello = relayHelloSchema.safeParse(parse(data));
  if (!hello.success) {
    log.warn('relay.bad_hello', { environment, issue: hello.error.issues[0]?.message });
    return false;
  }
  if (cursor.checkLog(hello.data.logId)) return true;
  if (hello.data.lastSeq < cursor.lastSeq) {
    cursor.reset('cursor_ahead', hello.data.logId, { relayLastSeq: hello.data.lastSeq });
    return true;
  }
  return false;
}

/** `after`: the cursor the stream was opened from. */
export function onReset(cursor: RelayCursor, log: Logger, environment: Environment, data: string, after: number): boolean {
  const reset = relayResetSchema.safeParse(parse(data));
  if (!reset.success) {
    log.warn('relay.bad_reset', { environment, issue: reset.error.issues[0]?.message });
    return false;
  }
  if (cursor.checkLog(reset.data.logId)) return true;
  if (reset.data.reason === 'pruned') return cursor.skipPruned(after, reset.data);
  cursor.reset('log_forked', reset.data.logId, { relayLastSeq: reset.data.lastSeq });
  return true;
}
