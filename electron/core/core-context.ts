/** What the channel handlers can reach inside a running core. */
import type { PaymentView, RelayState } from '../../shared/ipc/contract.js';
import type { Db } from './database.js';
import type { Logger } from './logger.js';
import type { Alerts } from './alerts.js';
import type { AuditLog } from './audit-log.js';
import type { PinGuard } from './pin-guard.js';
import type { Shifts } from './shifts.js';
import type { DayClose } from './day-close.js';
import type { SignIn } from './sign-in.js';
import type { StaffRepo } from './staff-repo.js';
import type { PaymentEngine } from './payment-engine.js';
import type { PaymentsRepo } from './payments-repo.js';
import type { ServiceClient } from './service-client.js';
import type { EnvironmentConfig, SettingsStore } from './settings-store.js';
import type { CleanEnvironmentInput } from './settings-validation.js';
import type { Takings } from './takings.js';
import type { History } from './history.js';
import type { TransactionsStore } from './transactions-store.js';
import type { Environment } from '../../shared/domain.js';
import type { PrintService } from './printing/print-service.js';

export type CoreContext = {
  /** For steps that span stores in one SQL transaction (settle by hand). */
  db: Db;
  settings: SettingsStore;
  staff: StaffRepo;
  signIn: SignIn;
  guard: PinGuard;
  audit: AuditLog;
  shifts: Shifts;
  dayClose: DayClose;
  engine: PaymentEngine;
  repo: PaymentsRepo;
  transactions: TransactionsStore;
  alerts: Alerts;
  /** Tell every screen a payment changed (payment:updated). */
  emitPayment(view: PaymentView): void;
  takings: Takings;
  history: History;
  client: ServiceClient;
  log: Logger;
  printing: PrintService;
  now: () => number;
  version: string;
  configFor(environment: Environment): Promise<EnvironmentConfig>;
  saveEnvironment(environment: Environment, clean: CleanEnvironmentInput): Promise<void>;
  setActive(environment: Environment): void;
  relayState(environment: Environment): RelayState;
};
