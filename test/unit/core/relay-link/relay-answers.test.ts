/** How long the till waits on a relay's 429: Retry-After in seconds or as a date, bounded, and only on a 429. */
import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, refusal, retryAfterMs } from '../../../../electron/core/relay-link/relay-answers.js';

describe("the relay's refusals", () => {
  const now = Date.parse('2026-11-27T06:00:00Z');

  it('reads Retry-After as seconds or an HTTP date, between its bounds, and nothing from what it cannot read', () => {
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs(' 10 ', now)).toBe(10_000);
    expect(retryAfterMs('Fri, 27 Nov 2026 06:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Fri, 27 Nov 2026 05:59:00 GMT', now), 'never asked again at once').toBe(1000);
    expect(retryAfterMs('0', now)).toBe(1000);
    expect(retryAfterMs('3600', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs('-1', now)).toBeNull();
  });

  it('only a 429 carries a wait: any other answer is a failed connection', () => {
    expect(refusal(429, { 'retry-after': '1' }).retryAfterMs).toBe(1000);
    expect(refusal(429, {}).retryAfterMs).toBeNull();
    expect(refusal(503, { 'retry-after': '10' }).retryAfterMs).toBeNull();
    expect(refusal(503, {}).status).toBe(503);
  });
});
