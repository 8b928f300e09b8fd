/**
 * The payment state machine against a scripted stand-in for the service client (the real HTTP path
 * is covered by the integration tests): uncertain -> retried with the same bytes, 4xx -> rejected
 * only on a first attempt, results landing at any point, and crash recovery.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../support/wait-for.js';
import { accepted, CREDENTIALS, sale } from './engine-fixture.js';
import { paymentRow } from '../../../support/payment-rows.js';
import { sandboxSuccessTransaction } from '../../../support/wire-fixtures.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../../../electron/core/storage/database.js';
import { PaymentEngine } from '../../../../electron/core/payments/payment-engine.js';
import { Alerts } from '../../../../electron/core/alerts/alerts.js';
import { PaymentsRepo } from '../../../../electron/core/payments/payments-repo.js';
import { TransactionsStore } from '../../../../electron/core/takings/transactions-store.js';
import { createLogger } from '../../../../electron/core/logger.js';
import type { ServiceClient, ServiceResult } from '../../../../electron/core/payments/service-client.js';
import type { PaymentView } from '../../../../shared/ipc/contract.js';
import type { WireTransaction } from '../../../../shared/wire/transaction.js';

let dir: string;
let db: Db;
let engine: PaymentEngine;
let script: ServiceResult[];
let bodies: string[];
let events: PaymentView[];

function makeEngine(
  credentialsFor: (environment: 'test' | 'live') => Promise<typeof CREDENTIALS | null> = async () => CREDENTIALS,
): PaymentEngine {
  const client: ServiceClient = {
    initialize: async (_c, body) => {
      bodies.push(body);
      return script.shift() ?? { kind: 'no-answer', reason: 'refused' };
    },
    resolve: async () => ({ kind: 'no-answer', reason: 'refused' }),
    close: async () => {},
  };
  return new PaymentEngine({
    db,
    repo: new PaymentsRepo(db),
    transactions: new TransactionsStore(db, 'Africa/Accra'),
    alerts: new Alerts(db, Date.now, () => {}),
    client,
    log: createLogger({ dataDir: dir, now: Date.now }),
    now: Date.now,
    tillId: () => 'TUNIT01',
    tillName: () => 'Front counter',
    credentialsFor,
    emit: (v) => events.push(v),
    retryDelaysMs: [20],
  });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'momo-engine-'));
  db = openDatabase(join(dir, 'till.db'));
  script = [];
  bodies = [];
  events = [];
  engine = makeEngine();
});
afterEach(async () => {
  await engine.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A LIVE sale of GH₵5.00 that a crash left 'created' at this till, still within its deadline. */
function leftCreatedInLive(id: string, serial: string): void {
  new PaymentsRepo(db).insert(
    paymentRow(id, {
      send_until: Date.now() + 60_000,
      merchant_ref: `TUNIT01.01JD${serial.padStart(22, '0')}`,
      environment: 'live',
      amount: 500,
      till_id: 'TUNIT01',
    }),
  );
}

function finalTx(ref: string, clientReference: string, sandbox = true): WireTransaction {
  const { sandbox: _flag, ...tx } = sandboxSuccessTransaction({
    reference: ref,
    clientReference,
    description: '',
    metadata: null,
    completedAt: '2026-11-21T10:00:05Z',
  });
  return (sandbox ? { ...tx, sandbox: true } : tx) as WireTransaction;
}

describe('payment engine', () => {
  it('validates before anything is stored, naming the field', async () => {
    expect(await engine.charge('test', sale('r-1', { amount: '10' }))).toMatchObject({ ok: false, field: 'amount' });
    expect(await engine.charge('test', sale('r-2', { msisdn: '0201' }))).toMatchObject({ ok: false, field: 'msisdn' });
    expect(await engine.charge('test', sale('r-3', { network: 'VODAFONE' }))).toMatchObject({ ok: false, field: 'network' });
    expect(bodies).toHaveLength(0);
  });

  it('5xx leaves it uncertain; the retry sends the same bytes; then it awaits the customer', async () => {
    script = [{ kind: 'error', status: 500, code: 'INTERNAL', message: 'boom', retryAfterMs: null }, accepted('TX_1')];
    const r = await engine.charge('test', sale('r-10'));
    expect(r.ok && r.payment.state).toBe('uncertain');
    const id = r.ok ? r.payment.id : '';
    await waitFor(() => events.some((e) => e.id === id && e.state === 'awaiting_customer'));
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toBe(bodies[0]);
    expect(JSON.parse(bodies[0] as string)).toMatchObject({
      amount: '10.00',
      customer: { msisdn: '233241234567', network: 'MTN' },
      merchantRef: expect.stringMatching(/^TUNIT01\.[0-9A-Z]{26}$/),
    });
  });

  it('a 4xx answer to the first attempt rejects; to a retry it stays uncertain (the first may have arrived)', async () => {
    script = [{ kind: 'error', status: 401, code: 'UNAUTHENTICATED', message: 'revoked', retryAfterMs: null }];
    const first = await engine.charge('test', sale('r-20'));
    expect(first.ok && first.payment.state).toBe('rejected');
    expect(first.ok && first.payment.errorMessage).toMatch(/revoked or is wrong/);

    script = [
      { kind: 'no-answer', reason: 'response-timeout' },
      { kind: 'error', status: 401, code: 'UNAUTHENTICATED', message: 'revoked', retryAfterMs: null },
    ];
    const second = await engine.charge('test', sale('r-21'));
    const id = second.ok ? second.payment.id : '';
    await waitFor(() => bodies.length >= 3);
    await new Promise((r) => setTimeout(r, 30));
    expect(new PaymentsRepo(db).get(id)?.state).toBe('uncertain');
    // ...and when its result does arrive, it lands.
    const ref = second.ok ? second.payment.merchantRef : '';
    engine.applyTransaction('test', finalTx('TX_LATE', ref), 5);
    expect(new PaymentsRepo(db).get(id)).toMatchObject({ state: 'success', reference: 'TX_LATE', fee: 20, net: 980 });
  });

  it('a huge Retry-After waits (bounded) instead of overflowing the timer into a 1 ms retry loop', async () => {
    script = [
      { kind: 'no-answer', reason: 'response-timeout' },
      { kind: 'error', status: 429, code: 'RATE_LIMITED', message: 'slow down', retryAfterMs: 3_000_000_000 },
    ];
    const r = await engine.charge('test', sale('r-25'));
    const id = r.ok ? r.payment.id : '';
    await waitFor(() => bodies.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(bodies).toHaveLength(2);
    expect(new PaymentsRepo(db).get(id)?.state).toBe('uncertain');
  });

  it('a LIVE payment held back by missing LIVE credentials (after a restart) does not block TEST sales', async () => {
    await engine.close();
    let liveReady = false; // at this start the LIVE secret is gone from the keychain
    engine = makeEngine(async (environment) => (environment === 'live' && !liveReady ? null : CREDENTIALS));
    leftCreatedInLive('p-live-stuck', '1');
    engine.resume();
    await new Promise((r) => setTimeout(r, 30));
    expect(new PaymentsRepo(db).get('p-live-stuck')?.state).toBe('created');
    expect(bodies).toHaveLength(0);
    script = [accepted('TX_T1')];
    expect(await engine.charge('test', sale('r-test-after'))).toMatchObject({
      ok: true,
      payment: { environment: 'test', state: 'awaiting_customer' },
    });
    // In LIVE itself, once its settings are back, a new sale still waits behind the one being sent.
    liveReady = true;
    expect(await engine.charge('live', sale('r-live-2'))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/Another payment is still being sent/),
    });
  });

  it('a payment held back by missing credentials looks again less and less often, and emits nothing meanwhile', async () => {
    await engine.close();
    let reads = 0;
    let liveBack = false;
    engine = makeEngine(async (environment) => {
      if (environment === 'test' || liveBack) return CREDENTIALS;
      reads += 1;
      return null; // the LIVE secret is gone from the keychain
    });
    leftCreatedInLive('p-live-held', '2');
    engine.resume();
    // Reads at 0, 20, 60, 140, 300, 620 ms (doubling from the first retry delay, 20 ms here): at most 5 in
    // 400 ms, where a fixed 20 ms wait would have read the keychain 20 times.
    await new Promise((r) => setTimeout(r, 400));
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(reads).toBeLessThanOrEqual(5);
    expect(events.filter((e) => e.id === 'p-live-held')).toEqual([]);
    expect(new PaymentsRepo(db).get('p-live-held')?.state).toBe('created');
    // The owner saves the LIVE settings: the held payment goes out at once, not at its next look.
    liveBack = true;
    script = [accepted('TX_HELD')];
    engine.retryHeld('test'); // another environment's save changes nothing
    engine.retryHeld('live');
    await new Promise((r) => setTimeout(r, 50)); // its own next look would come at 620 ms
    expect(new PaymentsRepo(db).get('p-live-held')?.state).toBe('awaiting_customer');
    expect(bodies).toEqual(['{}']);
  });

  it('a keychain failure while re-sending an uncertain payment is retried later, not left for the next start', async () => {
    await engine.close();
    let keychainDown = false;
    engine = makeEngine(async () => {
      if (keychainDown) throw new Error('keychain locked');
      return CREDENTIALS;
    });
    script = [{ kind: 'no-answer', reason: 'response-timeout' }, accepted('TX_K1')];
    const r = await engine.charge('test', sale('r-keychain'));
    expect(r.ok && r.payment.state).toBe('uncertain');
    keychainDown = true; // the first retry (20 ms later) cannot read the secret
    await new Promise((resolve) => setTimeout(resolve, 60));
    keychainDown = false;
    const id = r.ok ? r.payment.id : '';
    await waitFor(() => new PaymentsRepo(db).get(id)?.state === 'awaiting_customer');
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toBe(bodies[0]);
  });

  it('keeps a sandbox result out of LIVE and a live result out of TEST', async () => {
    script = [accepted('TX_9')];
    const r = await engine.charge('test', sale('r-30'));
    const ref = r.ok ? r.payment.merchantRef : '';
    engine.applyTransaction('test', finalTx('TX_9', ref, false), 1); // no sandbox flag: refused in TEST
    expect(new PaymentsRepo(db).get(r.ok ? r.payment.id : '')?.state).toBe('awaiting_customer');
    engine.applyTransaction('live', finalTx('TX_9', ref, true), 2); // sandbox in LIVE: refused
    expect(db.prepare('SELECT count(*) AS n FROM transactions').get()).toEqual({ n: 0 });
    engine.applyTransaction('test', finalTx('TX_9', ref, true), 3);
    expect(new PaymentsRepo(db).get(r.ok ? r.payment.id : '')?.state).toBe('success');
  });

  it('a result that arrived before the answer to initialize is applied when the answer comes', async () => {
    let release: (v: ServiceResult) => void = () => {};
    const slow: ServiceClient = {
      initialize: (_c, body) => {
        bodies.push(body);
        return new Promise((r) => (release = r));
      },
      resolve: async () => ({ kind: 'no-answer', reason: 'refused' }),
      close: async () => {},
    };
    await engine.close();
    engine = new PaymentEngine({ ...(engine as unknown as { deps: ConstructorParameters<typeof PaymentEngine>[0] }).deps, client: slow });
    const pending = engine.charge('test', sale('r-40'));
    await waitFor(() => bodies.length === 1);
    const ref = (JSON.parse(bodies[0] as string) as { merchantRef: string }).merchantRef;
    engine.applyTransaction('test', finalTx('TX_EARLY', ref), 1);
    release(accepted('TX_EARLY'));
    const r = await pending;
    expect(r.ok && r.payment.state).toBe('success');
  });

  it('resumes payments a crash left created, submitting or uncertain', async () => {
    script = [{ kind: 'no-answer', reason: 'broken' }];
    const r = await engine.charge('test', sale('r-50'));
    await engine.close(); // the app dies: the payment is uncertain on disk
    expect(r.ok && r.payment.state).toBe('uncertain');
    script = [accepted('TX_R')];
    engine = makeEngine();
    engine.resume();
    await waitFor(() => new PaymentsRepo(db).get(r.ok ? r.payment.id : '')?.state === 'awaiting_customer');
    expect(new Set(bodies).size).toBe(1);
  });
});
