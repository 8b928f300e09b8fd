/**
 * The core's payment engine and settle-by-hand on a real SQLite file, with no service to call: for tests
 * that feed it the service's results by hand (a late delivery replayed from the dashboard).
 */
import { Alerts } from '../../electron/core/alerts/alerts.js';
import { AuditLog } from '../../electron/core/people/audit-log.js';
import type { Db } from '../../electron/core/storage/database.js';
import { createLogger } from '../../electron/core/logger.js';
import { PaymentEngine } from '../../electron/core/payments/payment-engine.js';
import { PaymentsRepo } from '../../electron/core/payments/payments-repo.js';
import type { SettleDeps } from '../../electron/core/settle/settle-by-hand.js';
import { TransactionsStore } from '../../electron/core/takings/transactions-store.js';
import { openTempTillDb } from './temp-till-db.js';

export type OfflineEngineOptions = {
  /** Names the temporary folder. */
  prefix: string;
  tillId: string;
  timeZone: string;
  clock: () => number;
  /** Told the count of open owner alerts whenever it changes. */
  onAlerts?: (open: number) => void;
};

export type OfflineEngine = {
  db: Db;
  repo: PaymentsRepo;
  transactions: TransactionsStore;
  audit: AuditLog;
  alerts: Alerts;
  engine: PaymentEngine;
  /** What settleByHand needs, on the same database and clock. */
  settleDeps: SettleDeps;
  /** Closes the engine, then the database, and removes its folder. */
  close(): Promise<void>;
};

export function openOfflineEngine({ prefix, tillId, timeZone, clock, onAlerts }: OfflineEngineOptions): OfflineEngine {
  const { db, close } = openTempTillDb(prefix);
  const repo = new PaymentsRepo(db);
  const transactions = new TransactionsStore(db, timeZone);
  const audit = new AuditLog(db, clock);
  const alerts = new Alerts(db, clock, onAlerts ?? (() => undefined));
  const unused = async () => {
    throw new Error('the service is not called here');
  };
  const engine = new PaymentEngine({
    ...{ db, repo, transactions, alerts, now: clock, tillId: () => tillId, tillName: () => 'Front' },
    client: { initialize: unused, resolve: unused, close: async () => {} },
    log: createLogger({ dataDir: '/tmp', sink: () => undefined, now: clock }),
    credentialsFor: async () => null,
    emit: () => {},
    retryDelaysMs: [1000],
  });
  const settleDeps: SettleDeps = { db, repo, transactions, audit, now: clock, tillId: () => tillId };
  return {
    ...{ db, repo, transactions, audit, alerts, engine, settleDeps },
    close: async () => {
      await engine.close();
      close();
    },
  };
}
