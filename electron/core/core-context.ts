/** Everything the handlers wing can reach inside a running core; each map takes only the part it uses (a `Pick` of it). */
import type { PaymentView, RelayState } from '../../shared/ipc/contract.js';
import type { Db } from './storage/index.js';
import type { Logger } from './logger.js';
import type { Alerts } from './alerts/index.js';
import type { AuditLog } from './people/index.js';
import type { PinGuard } from './people/index.js';
import type { Shifts } from './shifts/index.js';
import type { DayClose } from './day/index.js';
import type { SignIn } from './people/index.js';
import type { StaffRepo } from './people/index.js';
import type { PaymentEngine } from './payments/index.js';
import type { PaymentsRepo } from './payments/index.js';
import type { LeftOpen } from './payments/index.js';
import type { ServiceClient } from './payments/index.js';
import type { EnvironmentConfig, SettingsStore } from './settings/index.js';
import type { CleanEnvironmentInput } from './settings/index.js';
import type { Takings } from './takings/index.js';
import type { History } from './history/index.js';
import type { TransactionsStore } from './takings/index.js';
import type { Environment } from '../../shared/domain.js';
import type { Shell } from '../../shared/shell.js';
import type { UpdateController } from './updates/index.js';
import type { PrintService } from './printing/index.js';

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
  /** The payments open when the till last stopped, and what has happened to them since this start. */
  leftOpen: LeftOpen;
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
  /** The desktop app or browser mode: browser mode refuses LIVE. */
  shell: Shell;
  /** The app's own updates: what the owner sees, and "restart to update". */
  updates: UpdateController;
  configFor(environment: Environment): Promise<EnvironmentConfig>;
  saveEnvironment(environment: Environment, clean: CleanEnvironmentInput): Promise<void>;
  setActive(environment: Environment): void;
  relayState(environment: Environment): RelayState;
};
