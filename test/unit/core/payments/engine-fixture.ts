/**
 * A payment engine on a real SQLite file with a scripted service client, for the engine's unit tests:
 * what it sent (bodies), what it emitted (events, in order), what it logged (lines), and its alerts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../../../electron/core/storage/database.js';
import { PaymentEngine, type EngineDeps } from '../../../../electron/core/payments/payment-engine.js';
import { Alerts } from '../../../../electron/core/alerts/alerts.js';
import { PaymentsRepo } from '../../../../electron/core/payments/payments-repo.js';
import { TransactionsStore } from '../../../../electron/core/takings/transactions-store.js';
import { createLogger, type LogLine } from '../../../../electron/core/logger.js';
import type { ServiceResult } from '../../../../electron/core/payments/service-client.js';
import type { PaymentView } from '../../../../shared/ipc/contract.js';
import type { WireTransaction } from '../../../../shared/wire/transaction.js';
import { sandboxSuccessTransaction } from '../../../support/wire-fixtures.js';

export const CREDENTIALS = {
  baseUrl: 'http://127.0.0.1:9',
  merchantId: 'MCH_ABCDEF123456',
  secretKey: 'sk_test_abcdefghijklmnop',
  callbackUrl: 'http://127.0.0.1:9/v1/webhooks',
};

export const accepted = (ref: string): ServiceResult => ({
  kind: 'answer',
  status: 202,
  retryAfterMs: null,
  json: {
    data: {
      reference: ref,
      clientReference: 'x',
      status: 'PENDING',
      amount: '10.00',
      currency: 'GHS',
      customer: { msisdn: '233241234567', network: 'MTN' },
      createdAt: '2026-11-21T10:00:00Z',
    },
  },
});

export const sale = (requestId: string, extra: Record<string, string> = {}) => ({
  requestId,
  amount: '10.00',
  msisdn: '024 123 4567',
  network: 'MTN',
  ...extra,
});

/** A final TEST result for `clientReference` (null: the delivery names no payment), SUCCESS unless told. */
export function finalTx(reference: string, clientReference: string | null, status: 'SUCCESS' | 'FAILED' = 'SUCCESS'): WireTransaction {
  return sandboxSuccessTransaction({
    reference,
    clientReference,
    status,
    description: '',
    metadata: null,
    completedAt: '2026-11-21T10:00:05Z',
    ...(status === 'FAILED' ? { fee: '0.00', net: '0.00' } : {}),
  }) as WireTransaction;
}

/**
 * `send` answers each initialize: by default the next scripted result, or no answer ("refused") when the
 * script is empty. A send that throws stands for a bug or a broken client below the engine.
 */
export type Fixture = {
  db: Db;
  repo: PaymentsRepo;
  alerts: Alerts;
  engine: PaymentEngine;
  script: ServiceResult[];
  bodies: string[];
  events: PaymentView[];
  logs: LogLine[];
  /** The states a payment was emitted in, in order. */
  statesOf(id: string): string[];
  /** The log lines of one event name. */
  logged(event: string): LogLine[];
  /** A new engine on the same database (the app restarted), the old one closed. */
  restart(overrides?: Partial<EngineDeps>): Promise<PaymentEngine>;
  cleanup(): Promise<void>;
};

export function engineFixture(overrides: Partial<EngineDeps> = {}): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'momo-engine-'));
  const db = openDatabase(join(dir, 'till.db'));
  const repo = new PaymentsRepo(db);
  const alerts = new Alerts(db, Date.now, () => {});
  const f = {
    db,
    repo,
    alerts,
    script: [] as ServiceResult[],
    bodies: [] as string[],
    events: [] as PaymentView[],
    logs: [] as LogLine[],
  } as Fixture;
  const make = (more: Partial<EngineDeps>) =>
    new PaymentEngine({
      db,
      repo,
      transactions: new TransactionsStore(db, 'Africa/Accra'),
      alerts,
      client: {
        initialize: async (_c, body) => {
          f.bodies.push(body);
          return f.script.shift() ?? { kind: 'no-answer', reason: 'refused' };
        },
        resolve: async () => ({ kind: 'no-answer', reason: 'refused' }),
        close: async () => {},
      },
      log: createLogger({ dataDir: dir, now: Date.now, sink: (line) => f.logs.push(line) }),
      now: Date.now,
      tillId: () => 'TUNIT01',
      tillName: () => 'Front counter',
      credentialsFor: async () => CREDENTIALS,
      emit: (v) => f.events.push(v),
      retryDelaysMs: [20],
      ...more,
    });
  f.engine = make(overrides);
  f.statesOf = (id) => f.events.filter((e) => e.id === id).map((e) => e.state);
  f.logged = (event) => f.logs.filter((l) => l.event === event);
  f.restart = async (more = {}) => {
    await f.engine.close();
    f.engine = make({ ...overrides, ...more });
    return f.engine;
  };
  f.cleanup = async () => {
    await f.engine.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return f;
}
