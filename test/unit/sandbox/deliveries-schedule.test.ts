import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHmac } from 'node:crypto';
import { openDb, type Db } from '../../../sandbox/db.js';
import { DeliveryEngine, type SendRequest, RETRY_OFFSETS_MS } from '../../../sandbox/deliveries.js';
import { defaultDeliveryTimeoutMs, startSandbox } from '../../../sandbox/server.js';
import { FakeClock } from './fake-clock.js';

const SECRET = 'sk_test_0123456789abcdefABCDEF';
const KEY_ID = 'pk_test_abcdefgh12345678';

type Behaviour = (call: number, request: SendRequest) => Promise<number>;

function setup(dir: string, clock: FakeClock, behaviour: Behaviour, timeScale = 1, deliveryTimeoutMs?: number) {
  const db = openDb(dir);
  db.prepare("INSERT INTO merchants (id, name, status, created_at) VALUES ('MCH_AAAAAAAAAAAA', 'M', 'APPROVED', 0)").run();
  db.prepare(
    "INSERT INTO api_keys (public_id, merchant_id, environment, secret_sha256, secret_encrypted, secret_last4, created_at) VALUES (?, 'MCH_AAAAAAAAAAAA', 'test', 'h', x'00', 'CDEF', 0)",
  ).run(KEY_ID);
  db.prepare(
    `INSERT INTO transactions (reference, merchant_id, environment, key_public_id, request_sha256, amount_pesewas, msisdn, network, description,
       callback_url, status, outcome, created_at) VALUES ('TX_1', 'MCH_AAAAAAAAAAAA', 'test', ?, 'h', 100, '233241234567', 'MTN', '', 'http://x/h', 'SUCCESS', 'AUTHORISE', 0)`,
  ).run(KEY_ID);
  const sends: { at: number; request: SendRequest }[] = [];
  const engine = new DeliveryEngine({
    db,
    clock,
    timeScale,
    ...(deliveryTimeoutMs === undefined ? {} : { deliveryTimeoutMs }),
    signedPayload: 'body',
    secretOf: () => SECRET,
    send: (request) => {
      sends.push({ at: clock.now(), request });
      return behaviour(sends.length, request);
    },
    log: () => undefined,
  });
  return { db, engine, sends };
}

/** Cumulative offsets when every attempt fails at once: 0, 5, 15, 35, 75, 155, 315, 635 s. */
const CUMULATIVE = RETRY_OFFSETS_MS.reduce<number[]>((acc, offset) => [...acc, (acc.at(-1) ?? 0) + offset], []);

describe('webhook retry schedule on an injected clock', () => {
  let dir: string;
  let db: Db | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sbx-unit-'));
  });
  afterEach(() => {
    db?.close();
    db = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('offsets are 0, +5, +10, +20, +40, +80, +160, +320 s', () => {
    expect(RETRY_OFFSETS_MS).toEqual([0, 5000, 10000, 20000, 40000, 80000, 160000, 320000]);
    expect(CUMULATIVE).toEqual([0, 5000, 15000, 35000, 75000, 155000, 315000, 635000]);
  });

  for (let failures = 0; failures <= 8; failures++) {
    it(`a receiver failing the first ${failures} attempts gets them at the exact offsets`, async () => {
      const clock = new FakeClock();
      const t0 = clock.now();
      const ctx = setup(dir, clock, async (call) => (call <= failures ? 500 : 204));
      db = ctx.db;
      const delivery = ctx.engine.enqueue('TX_1', KEY_ID, 'http://127.0.0.1:1/hook', '{"createdAt":"x","data":{}}');
      await clock.advance(700_000);
      const expectedAttempts = Math.min(failures + 1, 8);
      expect(ctx.sends.map((s) => s.at - t0)).toEqual(CUMULATIVE.slice(0, expectedAttempts));
      const row = ctx.engine.get(delivery.id);
      expect(row?.status).toBe(failures >= 8 ? 'FAILED' : 'DELIVERED');
      expect(row?.scheduled_attempts).toBe(expectedAttempts);
      const attempts = ctx.engine.attempts(delivery.id);
      expect(attempts.map((a) => a.status_code)).toEqual(ctx.sends.map((_, i) => (i < failures ? 500 : 204)));
      expect(attempts.map((a) => a.started_at - t0)).toEqual(CUMULATIVE.slice(0, expectedAttempts));
      expect(clock.pending()).toBe(0);
      await ctx.engine.close();
    });
  }

  it('no answer within 15 s is a failed attempt; the next comes 5 s after the time-out', async () => {
    const clock = new FakeClock();
    const t0 = clock.now();
    const ctx = setup(dir, clock, (call) => (call === 1 ? new Promise<number>(() => undefined) : Promise.resolve(200)));
    db = ctx.db;
    const delivery = ctx.engine.enqueue('TX_1', KEY_ID, 'http://127.0.0.1:1/hook', '{}');
    await clock.advance(14_999);
    expect(ctx.engine.attempts(delivery.id)).toHaveLength(0);
    await clock.advance(1);
    const [first] = ctx.engine.attempts(delivery.id);
    expect(first).toMatchObject({ attempt_no: 1, duration_ms: 15_000, status_code: null, ok: 0 });
    expect(first?.error).toMatch(/timeout/);
    expect(ctx.sends[0]?.request.signal.aborted).toBe(true);
    await clock.advance(5_000);
    expect(ctx.sends.map((s) => s.at - t0)).toEqual([0, 20_000]);
    expect(ctx.engine.get(delivery.id)?.status).toBe('DELIVERED');
    await ctx.engine.close();
  });

  it('the time scale shrinks offsets and the time-out alike', async () => {
    const clock = new FakeClock();
    const t0 = clock.now();
    const ctx = setup(dir, clock, (call) => (call === 1 ? new Promise<number>(() => undefined) : Promise.resolve(500)), 0.01);
    db = ctx.db;
    const delivery = ctx.engine.enqueue('TX_1', KEY_ID, 'http://127.0.0.1:1/hook', '{}');
    await clock.advance(10_000);
    // attempt 1 times out at 150 ms; then +50, +100, +200, +400, +800, +1600, +3200 ms
    expect(ctx.sends.map((s) => s.at - t0)).toEqual([0, 200, 300, 500, 900, 1700, 3300, 6500]);
    expect(ctx.engine.get(delivery.id)?.status).toBe('FAILED');
    await ctx.engine.close();
  });

  it('an explicit delivery time-out replaces the scaled one; offsets stay scaled', async () => {
    const clock = new FakeClock();
    const t0 = clock.now();
    const ctx = setup(dir, clock, (call) => (call === 1 ? new Promise<number>(() => undefined) : Promise.resolve(200)), 0.01, 1000);
    db = ctx.db;
    const delivery = ctx.engine.enqueue('TX_1', KEY_ID, 'http://127.0.0.1:1/hook', '{}');
    await clock.advance(999);
    expect(ctx.engine.attempts(delivery.id)).toHaveLength(0);
    await clock.advance(1);
    expect(ctx.engine.attempts(delivery.id)[0]).toMatchObject({ duration_ms: 1000, status_code: null, ok: 0 });
    await clock.advance(50);
    expect(ctx.sends.map((s) => s.at - t0)).toEqual([0, 1050]);
    expect(ctx.engine.get(delivery.id)?.status).toBe('DELIVERED');
    await ctx.engine.close();
  });

  it('by default the simulator waits 15 s scaled for an answer, never less than 1 s', () => {
    expect(defaultDeliveryTimeoutMs(1)).toBe(15_000);
    expect(defaultDeliveryTimeoutMs(2)).toBe(30_000);
    expect(defaultDeliveryTimeoutMs(0.5)).toBe(7_500);
    expect(defaultDeliveryTimeoutMs(0.1)).toBe(1_500);
    expect(defaultDeliveryTimeoutMs(0.05)).toBe(1_000);
    expect(defaultDeliveryTimeoutMs(0.01)).toBe(1_000);
  });

  it('refuses a delivery time-out that is not a positive number, before opening anything', async () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(startSandbox({ deliveryTimeoutMs: bad })).rejects.toThrow('deliveryTimeoutMs must be a positive number');
    }
  });

  it('each attempt is signed afresh: new timestamp, HMAC-SHA256 of the body with the key secret', async () => {
    const clock = new FakeClock();
    const ctx = setup(dir, clock, async () => 500);
    db = ctx.db;
    const body = '{"createdAt":"2026-01-01T00:00:00.000Z","data":{"reference":"TX_1"}}';
    ctx.engine.enqueue('TX_1', KEY_ID, 'http://127.0.0.1:1/hook', body);
    await clock.advance(20_000);
    expect(ctx.sends).toHaveLength(3);
    const timestamps = ctx.sends.map((s) => s.request.headers['x-service-timestamp']);
    expect(new Set(timestamps).size).toBe(3);
    for (const { request } of ctx.sends) {
      expect(request.body).toBe(body);
      expect(request.headers).toMatchObject({
        'content-type': 'application/json',
        'user-agent': 'Service-Webhooks',
        'x-service-key-id': KEY_ID,
      });
      expect(request.headers['x-service-signature']).toBe(`v1=${createHmac('sha256', SECRET).update(body).digest('hex')}`);
    }
    await ctx.engine.close();
  });

  it('a replay is one extra attempt marked manual; a 2xx replay ends a pending schedule', async () => {
    const clock = new FakeClock();
    let answer = 500;
    const ctx = setup(dir, clock, async () => answer);
    db = ctx.db;
    const delivery = ctx.engine.enqueue('TX_1', KEY_ID, 'http://127.0.0.1:1/hook', '{}');
    await clock.advance(0);
    answer = 200;
    const attempt = await ctx.engine.replay(delivery.id);
    expect(attempt).toMatchObject({ attempt_no: 2, manual: 1, ok: 1, status_code: 200 });
    expect(ctx.engine.get(delivery.id)?.status).toBe('DELIVERED');
    await clock.advance(700_000);
    expect(ctx.sends).toHaveLength(2);
    await ctx.engine.close();
  });

  it('closing mid-schedule and resuming on the same database continues at the stored next attempt time', async () => {
    const clock = new FakeClock();
    const t0 = clock.now();
    const first = setup(dir, clock, async () => 503);
    const delivery = first.engine.enqueue('TX_1', KEY_ID, 'http://127.0.0.1:1/hook', '{}');
    await clock.advance(6_000); // attempts at 0 and 5 s; the third is due at 15 s
    await first.engine.close();
    first.db.close();
    await clock.advance(4_000); // down for 4 s

    const reopened = openDb(dir);
    db = reopened;
    const sends: number[] = [];
    const engine = new DeliveryEngine({
      db: reopened,
      clock,
      timeScale: 1,
      signedPayload: 'body',
      secretOf: () => SECRET,
      send: async () => {
        sends.push(clock.now() - t0);
        return 200;
      },
      log: () => undefined,
    });
    expect(engine.resumeAll()).toBe(1);
    await clock.advance(4_999);
    expect(sends).toEqual([]);
    await clock.advance(1);
    expect(sends).toEqual([15_000]);
    expect(engine.attempts(delivery.id).map((a) => a.attempt_no)).toEqual([1, 2, 3]);
    expect(engine.get(delivery.id)).toMatchObject({ status: 'DELIVERED', scheduled_attempts: 3 });
    await engine.close();
  });
});
