/**
 * Final results from the relay landing on payments: PAID only on a SUCCESS, NOT PAID on a FAILED, never a
 * second time on a final payment, nothing for another till's payment, the retries of an uncertain payment
 * stopped, a result that came before the service's answer landed when the answer names it, and a late
 * result on a payment settled by hand checked against the hand.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServiceResult } from '../../../../electron/core/payments/service-client.js';
import { paymentRow } from '../../../support/payment-rows.js';
import { waitFor } from '../../../support/wait-for.js';
import { accepted, CREDENTIALS, engineFixture, finalTx, sale, type Fixture } from './engine-fixture.js';

let f: Fixture;
beforeEach(() => {
  f = engineFixture();
});
afterEach(async () => {
  await f.cleanup();
  vi.useRealTimers();
});

const txCount = () => (f.db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;

async function awaitingCustomer(requestId: string, reference: string) {
  f.script = [accepted(reference)];
  const r = await f.engine.charge('test', sale(requestId));
  if (!r.ok) throw new Error(r.message);
  return r.payment;
}

describe('a final result', () => {
  it('a FAILED result is NOT PAID, emitted and logged; a normal landing is no hand check and raises no alert', async () => {
    const p = await awaitingCustomer('r-failed', 'TX_F');
    f.engine.applyTransaction('test', finalTx('TX_F', p.merchantRef, 'FAILED'), 7);
    expect(f.repo.get(p.id)).toMatchObject({ state: 'failed', reference: 'TX_F', fee: 0, net: 0, hand_check: null, receipt_no: null });
    expect(f.statesOf(p.id).at(-1)).toBe('failed');
    expect(f.logged('payment.final')).toEqual([expect.objectContaining({ level: 'info', id: p.id, state: 'failed', reference: 'TX_F' })]);
    expect(f.alerts.list(true)).toEqual([]);
  });

  it('a final payment never changes again: a second, different result is stored but does not land', async () => {
    const p = await awaitingCustomer('r-final', 'TX_A');
    f.engine.applyTransaction('test', finalTx('TX_A', p.merchantRef), 1);
    const emitted = f.events.length;
    f.engine.applyTransaction('test', finalTx('TX_B', p.merchantRef, 'FAILED'), 2);
    expect(f.repo.get(p.id)).toMatchObject({ state: 'success', reference: 'TX_A', fee: 20, net: 980 });
    expect(f.events).toHaveLength(emitted);
    expect(f.logged('payment.final')).toHaveLength(1);
  });

  it("another till's result (no payment here) is stored and changes nothing", async () => {
    expect(() => f.engine.applyTransaction('test', finalTx('TX_OTHER', 'TOTHER.01JD0000000000000000000009'), 3)).not.toThrow();
    expect(() => f.engine.applyTransaction('test', finalTx('TX_OTHER2', null), 4)).not.toThrow();
    expect(txCount()).toBe(2);
    expect(f.events).toEqual([]);
  });

  it('a result for the wrong environment is refused and logged', async () => {
    f.engine.applyTransaction('live', finalTx('TX_SANDBOX', 'TUNIT01.x'), 5);
    expect(txCount()).toBe(0);
    expect(f.logged('relay.environment_mismatch')).toEqual([
      expect.objectContaining({ level: 'warn', environment: 'live', reference: 'TX_SANDBOX' }),
    ]);
  });

  it('a result on an uncertain payment stops its retries', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    f.script = [{ kind: 'no-answer', reason: 'response-timeout' }];
    const r = await f.engine.charge('test', sale('r-stop'));
    const p = r.ok ? r.payment : null;
    expect(p?.state).toBe('uncertain');
    expect(vi.getTimerCount()).toBe(1);
    f.engine.applyTransaction('test', finalTx('TX_S', p?.merchantRef ?? ''), 6);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(f.bodies).toHaveLength(1);
    expect(f.repo.get(p?.id ?? '')?.state).toBe('success');
  });

  it('a result naming only its reference, come before the answer, lands when the answer gives that reference', async () => {
    let release: (r: ServiceResult) => void = () => {};
    await f.restart({
      client: {
        initialize: (_c, body) => {
          f.bodies.push(body);
          return new Promise((r) => (release = r));
        },
        resolve: async () => ({ kind: 'no-answer', reason: 'refused' }),
        close: async () => {},
      },
    });
    const pending = f.engine.charge('test', sale('r-early'));
    await waitFor(() => f.bodies.length === 1);
    f.engine.applyTransaction('test', finalTx('TX_EARLY', null), 8); // no clientReference: nothing to land on yet
    expect(txCount()).toBe(1);
    release(accepted('TX_EARLY'));
    const r = await pending;
    expect(r.ok && r.payment).toMatchObject({ state: 'success', reference: 'TX_EARLY', fee: '0.20', net: '9.80' });
    expect(f.statesOf(r.ok ? r.payment.id : '')).toEqual(['created', 'submitting', 'awaiting_customer', 'success']);
  });
});

describe('a result landing while the payment is being sent wins', () => {
  /** The engine's sends wait for `answer`; its credential reads wait for `keys` when told to. */
  async function heldEngine(holdKeys = false) {
    const answers: Array<(r: ServiceResult) => void> = [];
    const keys: Array<() => void> = [];
    await f.restart({
      client: {
        initialize: (_c, body) => {
          f.bodies.push(body);
          return new Promise((r) => answers.push(r));
        },
        resolve: async () => ({ kind: 'no-answer', reason: 'refused' }),
        close: async () => {},
      },
      credentialsFor: async () => {
        if (holdKeys) await new Promise<void>((r) => keys.push(r));
        return CREDENTIALS;
      },
    });
    return { answer: (r: ServiceResult) => answers.shift()?.(r), keys: () => keys.shift()?.() };
  }

  it.each([
    ['an answer', accepted('TX_RACE')],
    ['a 4xx', { kind: 'error', status: 422, code: 'VALIDATION_ERROR', message: 'bad', retryAfterMs: null }],
    ['a 5xx', { kind: 'error', status: 500, code: 'INTERNAL', message: 'boom', retryAfterMs: null }],
    ['no answer', { kind: 'no-answer', reason: 'broken' }],
  ] as Array<[string, ServiceResult]>)('PAID stays PAID when %s to the first send comes after the result', async (_name, late) => {
    const held = await heldEngine();
    const pending = f.engine.charge('test', sale('r-race'));
    await waitFor(() => f.bodies.length === 1);
    const ref = (JSON.parse(f.bodies[0] as string) as { merchantRef: string }).merchantRef;
    f.engine.applyTransaction('test', finalTx('TX_RACE', ref), 11);
    held.answer(late);
    const r = await pending;
    expect(r.ok && r.payment).toMatchObject({ state: 'success', reference: 'TX_RACE', errorMessage: null });
    expect(f.statesOf(r.ok ? r.payment.id : '')).toEqual(['created', 'submitting', 'success']);
  });

  it('PAID stays PAID when a 4xx to a retry comes after the result, and nothing is sent again', async () => {
    const held = await heldEngine();
    const pending = f.engine.charge('test', sale('r-race-retry'));
    await waitFor(() => f.bodies.length === 1);
    held.answer({ kind: 'no-answer', reason: 'response-timeout' });
    const r = await pending;
    await waitFor(() => f.bodies.length === 2); // the retry, 20 ms later
    f.engine.applyTransaction('test', finalTx('TX_RACE2', r.ok ? r.payment.merchantRef : ''), 12);
    held.answer({ kind: 'error', status: 409, code: 'DUPLICATE_REFERENCE', message: 'dup', retryAfterMs: null });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(f.repo.get(r.ok ? r.payment.id : '')).toMatchObject({ state: 'success', error_code: null });
    expect(f.bodies).toHaveLength(2);
    expect(f.logged('payment.retry_failed')).toEqual([]);
  });

  it('a result landing while the keys are read: nothing is sent, nothing fails', async () => {
    const held = await heldEngine(true);
    f.repo.insert(paymentRow('p-keys', { send_until: Date.now() + 60_000, till_id: 'TUNIT01', merchant_ref: 'TUNIT01.p-keys' }));
    f.engine.resume();
    f.engine.applyTransaction('test', finalTx('TX_KEYS', 'TUNIT01.p-keys'), 13);
    held.keys();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(f.repo.get('p-keys')?.state).toBe('success');
    expect(f.bodies).toEqual([]);
    expect(f.logged('payment.resume_failed')).toEqual([]);
  });

  it('a payment whose keys are read as the engine closes leaves no timer behind', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const keys: Array<(v: null) => void> = [];
    await f.restart({ credentialsFor: () => new Promise((r) => keys.push(r)) });
    f.repo.insert(paymentRow('p-closing', { send_until: Date.now() + 60_000, till_id: 'TUNIT01', merchant_ref: 'TUNIT01.p-closing' }));
    f.engine.resume();
    const closing = f.engine.close();
    keys.shift()?.(null); // the keychain answers "no key" after close began
    await closing;
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('a late result on a payment settled by hand', () => {
  /** A payment settled by hand as PAID (reference TX_HAND) by someone the till does not name. */
  function settledByHand(id: string) {
    f.repo.insert(paymentRow(id, { till_id: 'TUNIT01', merchant_ref: `TUNIT01.${id}`, amount: 1000 }));
    f.repo.update(
      id,
      { state: 'success', reference: 'TX_HAND', fee: 0, net: 1000, hand_outcome: 'paid', hand_reference: 'TX_HAND', hand_at: 1 },
      1,
    );
  }

  it("that agrees confirms it, takes the service's fee, and is emitted and logged", async () => {
    settledByHand('p-agree');
    f.engine.applyTransaction('test', finalTx('TX_HAND', 'TUNIT01.p-agree'), 9);
    expect(f.repo.get('p-agree')).toMatchObject({ state: 'success', hand_check: 'confirmed', fee: 20, net: 980 });
    expect(f.statesOf('p-agree')).toEqual(['success']);
    expect(f.logged('payment.final')).toEqual([expect.objectContaining({ id: 'p-agree', state: 'success', reference: 'TX_HAND' })]);
    expect(f.alerts.list(true)).toEqual([]);
  });

  it("that disagrees overrides it and tells the owner, naming 'someone' when the till has no name", async () => {
    settledByHand('p-differ');
    f.engine.applyTransaction('test', finalTx('TX_SERVICE', 'TUNIT01.p-differ', 'FAILED'), 10);
    expect(f.repo.get('p-differ')).toMatchObject({ state: 'failed', hand_check: 'overridden', reference: 'TX_SERVICE' });
    expect(f.alerts.list(true).map((a) => a.message)).toEqual([
      'GH₵10.00 from 024 123 4567 was settled by hand as PAID (reference TX_HAND) by someone, ' +
        "but the service's result says NOT PAID (reference TX_SERVICE). The service's result now counts in takings.",
    ]);
  });
});
