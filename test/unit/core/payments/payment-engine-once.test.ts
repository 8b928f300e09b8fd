/**
 * The engine never starts a payment twice and never sends one payment twice at once: the same sale again
 * (a second click, a second window, after the keychain emptied) finds the first; a send already under way is
 * joined, not repeated; a payment past sending is not sent again; a closed engine sends nothing. And what it
 * records: who started it, the reversed number the search uses, the log line of each step.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceResult } from '../../../../electron/core/payments/service-client.js';
import { waitFor } from '../../../support/wait-for.js';
import { accepted, CREDENTIALS, engineFixture, sale, type Fixture } from './engine-fixture.js';

let f: Fixture;
beforeEach(() => {
  f = engineFixture();
});
afterEach(async () => {
  await f.cleanup();
});

/** An engine whose service answers only when the test says so. */
async function slowService(): Promise<{ release: (r: ServiceResult) => void }> {
  const held: Array<(r: ServiceResult) => void> = [];
  await f.restart({
    client: {
      initialize: (_c, body) => {
        f.bodies.push(body);
        return new Promise((r) => held.push(r));
      },
      resolve: async () => ({ kind: 'no-answer', reason: 'refused' }),
      close: async () => {},
    },
  });
  return { release: (r) => held.shift()?.(r) };
}

const count = (f: Fixture) => (f.db.prepare('SELECT count(*) AS n FROM payments').get() as { n: number }).n;

describe('one sale, one payment', () => {
  it('the same sale charged twice at once starts one payment, sent once; both answers show it as sent', async () => {
    f.script = [accepted('TX_ONCE')];
    const [a, b] = await Promise.all([f.engine.charge('test', sale('r-twice')), f.engine.charge('test', sale('r-twice'))]);
    expect(a.ok && b.ok).toBe(true);
    const [pa, pb] = [a.ok ? a.payment : null, b.ok ? b.payment : null];
    expect(pb?.id).toBe(pa?.id);
    // The second waited for the first's send: it does not show a payment still being sent.
    expect(pa?.state).toBe('awaiting_customer');
    expect(pb?.state).toBe('awaiting_customer');
    expect(f.bodies).toHaveLength(1);
    expect(count(f)).toBe(1);
    expect(f.logged('payment.created')).toHaveLength(1);
  });

  it('the same sale again after the keychain lost the key still answers with the first payment', async () => {
    f.script = [accepted('TX_FIRST')];
    const first = await f.engine.charge('test', sale('r-again'));
    await f.restart({ credentialsFor: async () => null });
    const again = await f.engine.charge('test', sale('r-again'));
    expect(again).toEqual({ ok: true, payment: first.ok ? first.payment : null });
    expect(f.bodies).toHaveLength(1);
  });

  it('without credentials nothing is stored or sent, and the message names the environment', async () => {
    await f.restart({ credentialsFor: async (environment) => (environment === 'live' ? null : CREDENTIALS) });
    expect(await f.engine.charge('live', sale('r-nokey'))).toEqual({
      ok: false,
      message: 'LIVE settings are incomplete: the owner must finish them in Settings before the till can charge.',
    });
    expect(count(f)).toBe(0);
    expect(f.bodies).toEqual([]);
    expect(f.events).toEqual([]);
  });

  it('stores who started it, the number reversed for the search, and logs the new payment', async () => {
    f.script = [accepted('TX_BY')];
    const r = await f.engine.charge('test', sale('r-by'), { id: 'S1', name: 'Ama', shiftId: 'SH1' });
    const id = r.ok ? r.payment.id : '';
    expect(f.repo.get(id)).toMatchObject({
      staff_id: 'S1',
      staff_name: 'Ama',
      shift_id: 'SH1',
      msisdn: '233241234567',
      msisdn_rev: '765432142332',
    });
    expect(f.logged('payment.created')).toEqual([
      expect.objectContaining({ level: 'info', id, merchantRef: `TUNIT01.${id}`, environment: 'test', amount: '10.00' }),
    ]);
    expect(f.logged('payment.accepted')).toEqual([
      expect.objectContaining({ level: 'info', id, status: 202, reference: 'TX_BY', attempt: 1 }),
    ]);
  });
});

describe('one send at a time', () => {
  it('a send already under way is joined: resume and submit during it send nothing more', async () => {
    const service = await slowService();
    const pending = f.engine.charge('test', sale('r-slow'));
    await waitFor(() => f.bodies.length === 1);
    const [row] = f.db.prepare('SELECT id FROM payments').all() as Array<{ id: string }>;
    const id = row?.id ?? '';
    f.engine.resume(); // a payment in 'submitting' is one a crash could have left: here it is being sent
    const joined = f.engine.submit(id);
    service.release(accepted('TX_SLOW'));
    await joined;
    const r = await pending;
    expect(r.ok && r.payment.state).toBe('awaiting_customer');
    expect(f.bodies).toHaveLength(1);
    expect(f.repo.get(id)?.attempts).toBe(1);
  });

  it('a payment past sending, or unknown, is not sent again', async () => {
    f.script = [accepted('TX_DONE')];
    const r = await f.engine.charge('test', sale('r-done'));
    const id = r.ok ? r.payment.id : '';
    await f.engine.submit(id);
    await f.engine.submit('no-such-payment');
    expect(f.bodies).toHaveLength(1);
    expect(f.statesOf(id)).toEqual(['created', 'submitting', 'awaiting_customer']);
  });

  it('close waits for the send under way, then writes nothing more and sends nothing', async () => {
    const service = await slowService();
    const pending = f.engine.charge('test', sale('r-close'));
    await waitFor(() => f.bodies.length === 1);
    let closed = false;
    const closing = f.engine.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(closed).toBe(false);
    service.release(accepted('TX_AFTER_CLOSE'));
    await closing;
    const r = await pending;
    // The answer came after close: the payment stays as it was on disk, for resume() at the next start.
    expect(r.ok && r.payment.state).toBe('submitting');
    const id = r.ok ? r.payment.id : '';
    expect(f.statesOf(id)).toEqual(['created', 'submitting']);
    await f.engine.submit(id);
    expect(f.bodies).toHaveLength(1);
  });
});

describe('stop waiting', () => {
  it('marks an open payment once, with who stopped, and emits it; a final or unknown payment is left alone', async () => {
    f.script = [accepted('TX_WAIT')];
    const r = await f.engine.charge('test', sale('r-wait'));
    const id = r.ok ? r.payment.id : '';
    const stopped = f.engine.stopWaiting(id, 'Kofi');
    expect(stopped).toMatchObject({ id, state: 'awaiting_customer', stoppedWaiting: true, stoppedBy: 'Kofi' });
    expect(f.events.at(-1)).toEqual(stopped);
    const emitted = f.events.length;
    // A second stop (another window) changes nothing: the first name stays, nothing is emitted.
    expect(f.engine.stopWaiting(id, 'Ama')).toMatchObject({ stoppedWaiting: true, stoppedBy: 'Kofi' });
    expect(f.events).toHaveLength(emitted);
    expect(f.engine.stopWaiting('no-such-payment', 'Ama')).toBeNull();

    f.script = [{ kind: 'error', status: 422, code: 'VALIDATION_ERROR', message: 'bad', retryAfterMs: null }];
    const refused = await f.engine.charge('test', sale('r-refused'));
    const refusedId = refused.ok ? refused.payment.id : '';
    expect(f.engine.stopWaiting(refusedId, 'Kofi')).toMatchObject({ state: 'rejected', stoppedWaiting: false, stoppedBy: null });
    expect(f.repo.get(refusedId)?.stopped_waiting).toBe(0);
  });
});
