/**
 * The engine's waits and what each answer leaves on the payment, on a fake clock (setTimeout only): the
 * retry delay by attempt, Retry-After, the doubling wait for missing credentials and what a settings save
 * does to it, a rejection or a refusal on a retry, and the log line of each. A retry that throws is logged,
 * never lost silently.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SERVICE_TROUBLE_MESSAGE, UNREACHABLE_MESSAGE } from '../../../../electron/core/payments/error-messages.js';
import { paymentRow } from '../../../support/payment-rows.js';
import { accepted, CREDENTIALS, engineFixture, sale, type Fixture } from './engine-fixture.js';

let f: Fixture;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  f = engineFixture();
});
afterEach(async () => {
  await f.cleanup();
  vi.useRealTimers();
});

const tick = (ms: number) => vi.advanceTimersByTimeAsync(ms);
const idOf = (r: Awaited<ReturnType<Fixture['engine']['charge']>>) => (r.ok ? r.payment.id : '');

describe('retries', () => {
  it('waits by attempt (20, 50, then 200 ms for every later one) and says the service cannot be reached', async () => {
    await f.restart({ retryDelaysMs: [20, 50, 200] });
    f.script = [
      { kind: 'no-answer', reason: 'response-timeout' },
      { kind: 'no-answer', reason: 'connect-timeout' },
      { kind: 'no-answer', reason: 'broken' },
      { kind: 'no-answer', reason: 'broken' },
      accepted('TX_LATER'),
    ];
    const id = idOf(await f.engine.charge('test', sale('r-wait')));
    expect(f.repo.get(id)).toMatchObject({ state: 'uncertain', error_code: 'response-timeout', error_message: UNREACHABLE_MESSAGE });
    for (const [wait, sent] of [
      [20, 2],
      [50, 3],
      [200, 4],
      [200, 5],
    ] as const) {
      await tick(wait - 1);
      expect(f.bodies).toHaveLength(sent - 1);
      await tick(1);
      expect(f.bodies).toHaveLength(sent);
    }
    expect(f.repo.get(id)).toMatchObject({ state: 'awaiting_customer', error_code: null, error_message: null, attempts: 5 });
    expect(f.statesOf(id)).toEqual(['created', ...Array(4).fill(['submitting', 'uncertain']).flat(), 'submitting', 'awaiting_customer']);
    const uncertain = f.logged('payment.uncertain');
    expect(uncertain[0]).toMatchObject({ level: 'warn', id, attempt: 1, reason: 'response-timeout' });
    expect(uncertain[0]).not.toHaveProperty('status');
    expect(uncertain.map((l) => l.attempt)).toEqual([1, 2, 3, 4]);
  });

  it("a 5xx keeps the service's code, says the service had a problem, and honours Retry-After", async () => {
    f.script = [{ kind: 'error', status: 503, code: 'INTERNAL', message: 'down', retryAfterMs: 100 }, accepted('TX_AFTER')];
    const id = idOf(await f.engine.charge('test', sale('r-5xx')));
    expect(f.repo.get(id)).toMatchObject({ state: 'uncertain', error_code: 'INTERNAL', error_message: SERVICE_TROUBLE_MESSAGE });
    expect(f.logged('payment.uncertain')).toEqual([
      expect.objectContaining({ level: 'warn', id, attempt: 1, status: 503, code: 'INTERNAL' }),
    ]);
    expect(f.logged('payment.uncertain')[0]).not.toHaveProperty('reason');
    await tick(99);
    expect(f.bodies).toHaveLength(1);
    await tick(1);
    expect(f.bodies).toHaveLength(2);
    expect(f.repo.get(id)?.state).toBe('awaiting_customer');
  });

  it('a 4xx without a code rejects the first attempt as HTTP_<status>, emitted and logged', async () => {
    f.script = [{ kind: 'error', status: 403, code: null, message: null, retryAfterMs: null }];
    const id = idOf(await f.engine.charge('test', sale('r-403')));
    expect(f.repo.get(id)).toMatchObject({ state: 'rejected', error_code: 'HTTP_403' });
    expect(f.repo.get(id)?.error_message).toMatch(/^The payment service does not allow this merchant account/);
    expect(f.statesOf(id)).toEqual(['created', 'submitting', 'rejected']);
    expect(f.logged('payment.refused')).toEqual([expect.objectContaining({ level: 'warn', id, status: 403, code: null, attempt: 1 })]);
    await tick(1000);
    expect(f.bodies).toHaveLength(1);
  });

  it("a 4xx to a retry keeps it uncertain with the service's code and message, and retries after Retry-After", async () => {
    f.script = [
      { kind: 'no-answer', reason: 'response-timeout' },
      { kind: 'error', status: 409, code: 'DUPLICATE_REFERENCE', message: 'dup', retryAfterMs: 150 },
      accepted('TX_DUP'),
    ];
    const id = idOf(await f.engine.charge('test', sale('r-dup')));
    await tick(20);
    expect(f.repo.get(id)).toMatchObject({ state: 'uncertain', error_code: 'DUPLICATE_REFERENCE' });
    expect(f.repo.get(id)?.error_message).toMatch(/already holds a different payment under this reference/);
    expect(f.statesOf(id)).toEqual(['created', 'submitting', 'uncertain', 'submitting', 'uncertain']);
    await tick(149);
    expect(f.bodies).toHaveLength(2);
    await tick(1);
    expect(f.bodies).toHaveLength(3);
    expect(f.repo.get(id)?.state).toBe('awaiting_customer');
  });

  it('a retry, a resume or a settings save whose send throws is logged as failed, with the error', async () => {
    let calls = 0;
    await f.restart({
      client: {
        initialize: async (_c, body) => {
          f.bodies.push(body);
          calls += 1;
          if (calls === 1) return { kind: 'no-answer', reason: 'refused' };
          throw new Error('client bug');
        },
        resolve: async () => ({ kind: 'no-answer', reason: 'refused' }),
        close: async () => {},
      },
    });
    const id = idOf(await f.engine.charge('test', sale('r-throw')));
    await tick(20);
    expect(f.logged('payment.retry_failed')).toEqual([
      expect.objectContaining({ level: 'error', id, error: { name: 'Error', message: 'client bug' } }),
    ]);

    f.repo.insert(
      paymentRow('p-resume', {
        send_until: Date.now() + 60_000,
        till_id: 'TUNIT01',
        environment: 'live',
        merchant_ref: 'TUNIT01.p-resume',
      }),
    );
    f.engine.resume();
    await tick(0);
    expect(f.logged('payment.resume')).toEqual(
      expect.arrayContaining([expect.objectContaining({ level: 'info', id: 'p-resume', state: 'created' })]),
    );
    // (The sale whose retry threw is still 'submitting' on disk: resume takes it up as well.)
    expect(f.logged('payment.resume_failed')).toContainEqual(
      expect.objectContaining({ level: 'error', id: 'p-resume', error: { name: 'Error', message: 'client bug' } }),
    );
  });
});

describe('a payment held for want of credentials', () => {
  it('looks again after 20, 40, 80 ms…; a save of the other environment does nothing; its own save looks at once', async () => {
    let reads = 0;
    let back = false;
    let throwing = false;
    await f.restart({
      credentialsFor: async (environment) => {
        if (environment === 'test') return CREDENTIALS;
        reads += 1;
        if (throwing) throw new Error('keychain locked');
        return back ? CREDENTIALS : null;
      },
    });
    f.repo.insert(
      paymentRow('p-held', { send_until: Date.now() + 60_000, till_id: 'TUNIT01', environment: 'live', merchant_ref: 'TUNIT01.p-held' }),
    );
    f.engine.resume();
    await tick(0);
    expect(reads).toBe(1);
    await tick(19);
    expect(reads).toBe(1);
    await tick(1);
    expect(reads).toBe(2);
    await tick(39);
    expect(reads).toBe(2);
    await tick(1);
    expect(reads).toBe(3); // the next look is due in 80 ms
    f.engine.retryHeld('test');
    await tick(10);
    expect(reads).toBe(3);
    // A LIVE save while the secret is still unreadable: one look now, then the waits start again from 20 ms;
    // the old look (due 70 ms after the save) is gone, not left running beside the new ones.
    throwing = true;
    f.engine.retryHeld('live');
    await tick(0);
    expect(reads).toBe(4);
    expect(f.logged('payment.credentials_unavailable')).toEqual([
      expect.objectContaining({ level: 'warn', id: 'p-held', error: { name: 'Error', message: 'keychain locked' } }),
    ]);
    throwing = false;
    await tick(19);
    expect(reads).toBe(4);
    await tick(1);
    expect(reads).toBe(5);
    await tick(40);
    expect(reads).toBe(6); // 60 ms after the save; the next look is due at 140
    await tick(15); // past where the old look was due (70)
    expect(reads).toBe(6);
    expect(f.events).toEqual([]);
    expect(f.bodies).toEqual([]);

    back = true;
    f.script = [accepted('TX_HELD')];
    f.engine.retryHeld('live');
    await tick(0);
    expect(f.repo.get('p-held')?.state).toBe('awaiting_customer');
    expect(f.bodies).toEqual(['{}']);
  });

  it('a settings save whose send throws is logged as failed', async () => {
    let back = false;
    await f.restart({
      credentialsFor: async () => (back ? CREDENTIALS : null),
      client: {
        initialize: async () => {
          throw new Error('client bug');
        },
        resolve: async () => ({ kind: 'no-answer', reason: 'refused' }),
        close: async () => {},
      },
    });
    f.repo.insert(paymentRow('p-save', { send_until: Date.now() + 60_000, till_id: 'TUNIT01', merchant_ref: 'TUNIT01.p-save' }));
    f.engine.resume();
    await tick(0);
    back = true;
    f.engine.retryHeld('test');
    await tick(0);
    expect(f.logged('payment.retry_failed')).toEqual([
      expect.objectContaining({ level: 'error', id: 'p-save', error: { name: 'Error', message: 'client bug' } }),
    ]);
  });
});
