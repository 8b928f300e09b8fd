/**
 * The owner page's two rate counters on a clock the test moves: unknown credentials per client and for all
 * clients together (GuessLimiter), and each link's requests (LinkRate), at the instance's defaults and at
 * settings changed while they run (a reload).
 */
import { describe, expect, it } from 'vitest';
import { GuessLimiter, LinkRate, type GuessLimits, type LinkRateLimits } from '../../../../../relay/http/owner/guard.js';
import { parseRelayConfig } from '../../../../../relay/ops/index.js';

const DEFAULTS = parseRelayConfig({}, 'defaults', {}, 'postgres');

function guessLimiter(now: () => number, limits: Partial<GuessLimits> = {}) {
  const guesses = new GuessLimiter(() => ({ ...DEFAULTS, ...limits }), now);
  return { missed: (client: string) => guesses.missed(client), waitFor: (client: string) => guesses.refusal(client)?.retryAfter ?? 0 };
}

function linkRate(now: () => number, limits: () => LinkRateLimits = () => DEFAULTS) {
  const rate = new LinkRate(limits, now);
  return { allow: (link: string) => rate.take(link) === 0, take: (link: string) => rate.take(link) };
}

function clock() {
  let t = 1_000_000;
  return { now: () => t, pass: (seconds: number) => (t += seconds * 1000) };
}

describe("the owner page's rate counters", () => {
  it('a client may miss 10 times, then waits whole seconds for each try again (one per 10 s); another client is untouched', () => {
    const c = clock();
    const guesses = guessLimiter(c.now);
    for (let i = 0; i < 10; i++) {
      expect(guesses.waitFor('198.51.100.1'), `try ${i + 1}`).toBe(0);
      guesses.missed('198.51.100.1');
    }
    expect(guesses.waitFor('198.51.100.1')).toBe(10);
    expect(guesses.waitFor('198.51.100.2')).toBe(0);
    c.pass(5);
    expect(guesses.waitFor('198.51.100.1'), 'half refilled: rounded up').toBe(5);
    c.pass(4.5);
    expect(guesses.waitFor('198.51.100.1')).toBe(1);
    c.pass(0.5);
    expect(guesses.waitFor('198.51.100.1')).toBe(0);
    guesses.missed('198.51.100.1');
    expect(guesses.waitFor('198.51.100.1'), 'one try came back, and went').toBe(10);
    c.pass(1000);
    for (let i = 0; i < 10; i++) guesses.missed('198.51.100.1');
    expect(guesses.waitFor('198.51.100.1'), 'refilled to its burst, never past it').toBe(10);
  });

  it('asking is free: only misses count', () => {
    const c = clock();
    const guesses = guessLimiter(c.now, { ownerUnknownCredentialBurstPerClient: 2, ownerUnknownCredentialsPerSecondPerClient: 0.3 });
    for (let i = 0; i < 50; i++) expect(guesses.waitFor('198.51.100.1')).toBe(0);
    guesses.missed('198.51.100.1');
    guesses.missed('198.51.100.1');
    expect(guesses.waitFor('198.51.100.1'), '1 / 0.3 s, rounded up').toBe(4);
  });

  it('all clients together may cost 200 look-ups a second: past them every client waits a second, then tries again', () => {
    const c = clock();
    const guesses = guessLimiter(c.now);
    for (let client = 0; client < 20; client++) for (let i = 0; i < 10; i++) guesses.missed(`203.0.113.${client}`);
    expect(guesses.waitFor('192.0.2.1'), 'a client that never missed').toBe(1);
    c.pass(0.5);
    expect(guesses.waitFor('192.0.2.1')).toBe(0);
    for (let i = 0; i < 100; i++) guesses.missed(`192.0.2.${i}`);
    expect(guesses.waitFor('192.0.2.200')).toBe(1);
    c.pass(1);
    expect(guesses.waitFor('192.0.2.200')).toBe(0);
    expect(guesses.waitFor('203.0.113.0'), 'its own bucket still speaks first').toBe(9);
  });

  it('a link may make 30 requests at once, then one a second; each link has its own', () => {
    const c = clock();
    const rate = linkRate(c.now);
    const burst = Array.from({ length: 31 }, () => rate.allow('ol_a'));
    expect(burst.filter(Boolean)).toHaveLength(30);
    expect(burst[30]).toBe(false);
    expect(rate.allow('ol_b')).toBe(true);
    c.pass(0.5);
    expect(rate.allow('ol_a'), 'half a request is none').toBe(false);
    c.pass(0.5);
    expect(rate.allow('ol_a'), 'refused requests took nothing').toBe(true);
    expect(rate.allow('ol_a')).toBe(false);
    c.pass(3600);
    expect(Array.from({ length: 31 }, () => rate.allow('ol_a')).filter(Boolean)).toHaveLength(30);
  });

  it('names the limit a client met, and reads the limits at each request (a reload applies at once)', () => {
    const c = clock();
    const limits = { ...DEFAULTS, ownerUnknownCredentialBurstPerClient: 1 };
    const guesses = new GuessLimiter(() => limits, c.now);
    guesses.missed('198.51.100.1');
    expect(guesses.refusal('198.51.100.1')).toEqual({
      retryAfter: 10,
      limit: 'ownerUnknownCredentialsPerSecondPerClient',
      message:
        'Too many unknown links tried from here (ownerUnknownCredentialsPerSecondPerClient 0.1 after ownerUnknownCredentialBurstPerClient 1); wait and try again',
    });
    limits.ownerUnknownCredentialsPerSecondPerClient = 0.02;
    expect(guesses.refusal('198.51.100.1')?.retryAfter, '1 / 0.02 a second').toBe(50);
    c.pass(50);
    expect(guesses.refusal('198.51.100.1')).toBeNull();
    limits.ownerUnknownCredentialsPerSecond = 1;
    guesses.missed('198.51.100.2');
    expect(guesses.refusal('192.0.2.1')).toMatchObject({ retryAfter: 1, limit: 'ownerUnknownCredentialsPerSecond' });
  });

  it("a link's wait is its configured rate's, in seconds; a lower burst refuses sooner", () => {
    const c = clock();
    const limits = { ownerPageRequestBurstPerLink: 2, ownerPageRequestsPerSecondPerLink: 0.25 };
    const rate = linkRate(c.now, () => limits);
    expect([rate.take('ol_a'), rate.take('ol_a')]).toEqual([0, 0]);
    expect(rate.take('ol_a'), '1 / 0.25 a second').toBe(4);
    c.pass(3);
    expect(rate.take('ol_a'), 'three quarters refilled: a second to go').toBe(1);
    limits.ownerPageRequestsPerSecondPerLink = 2;
    c.pass(0.125);
    expect(rate.take('ol_a'), 'a reload applies at once: it refills at the new rate').toBe(0);
  });
});
