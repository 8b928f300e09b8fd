/**
 * What the relay's answers mean to the till: a catch-up page, read item by item; and a refusal. A 429 names,
 * in Retry-After, when the relay will take the till's next read: the till's share of the relay is spent for
 * now, the relay itself is fine and keeps every result.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import { relayLogIdSchema, relayPageSchema } from '../../../shared/relay-wire.js';

/**
 * A catch-up page read item by item: one event the till cannot read (a field a newer service added in a
 * shape this version refuses) is logged and stepped over, exactly as on the live stream, instead of failing
 * the whole page and so blocking every later result behind it at each reconnect.
 */
export const lenientPageSchema = relayPageSchema.extend({
  items: z.array(z.unknown()),
  /** Optional here only so a till still works against a relay from before log ids (it gets no reset on a wipe). */
  logId: relayLogIdSchema.optional(),
});

/** The longest the till waits on one Retry-After: a relay asking for longer is asked again then. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** The shortest: a relay answering 429 with no wait is not asked again at once, over and over. */
const MIN_RETRY_AFTER_MS = 1_000;

export class RelayHttpError extends Error {
  constructor(
    readonly status: number,
    /** For a 429 with a readable Retry-After: how long the relay asked the till to wait. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(`relay answered HTTP ${status}`);
  }
}

/** Retry-After in seconds or as an HTTP date, in ms (1 s to MAX_RETRY_AFTER_MS), or null when absent or unreadable. */
export function retryAfterMs(value: IncomingHttpHeaders[string], now: number): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  const t = text.trim();
  // Either whole seconds or an HTTP date (which names its day and month in words).
  const ms = /^\d+$/.test(t) ? Number(t) * 1000 : /^[A-Za-z]{3}, /.test(t) ? Date.parse(t) - now : Number.NaN;
  return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(MIN_RETRY_AFTER_MS, ms)) : null;
}

/** The error for a refused answer: a 429 carries the wait its Retry-After asks for. */
export function refusal(status: number, headers: IncomingHttpHeaders): RelayHttpError {
  return new RelayHttpError(status, status === 429 ? retryAfterMs(headers['retry-after'], Date.now()) : null);
}
