/** What the payment engine is given: its stores, the service client, the till's identity and credentials. */
import type { Environment } from '../../../shared/domain.js';
import type { PaymentView } from '../../../shared/ipc/contract.js';
import type { Cashier } from '../../../shared/wire/payment-metadata.js';
import type { Alerts } from '../alerts/index.js';
import type { Db } from '../storage/index.js';
import type { Logger } from '../logger.js';
import type { PaymentsRepo } from './payments-repo.js';
import type { ServiceClient, ServiceCredentials } from './service-client.js';
import type { TransactionsStore } from '../takings/index.js';

export type StartedBy = Cashier & { shiftId: string | null };

export type EngineDeps = {
  db: Db;
  repo: PaymentsRepo;
  transactions: TransactionsStore;
  /** The owner's alerts (a late result that overrides a settle by hand raises one). */
  alerts: Alerts;
  client: ServiceClient;
  log: Logger;
  now: () => number;
  tillId: () => string;
  /** Sent in the payment's metadata, so other tills name this one. */
  tillName: () => string;
  /** Credentials and callback URL of an environment, or null when it is not usable now. */
  credentialsFor: (environment: Environment) => Promise<(ServiceCredentials & { callbackUrl: string }) | null>;
  emit: (view: PaymentView) => void;
  retryDelaysMs: readonly number[];
  /** How long after Enter a payment the service has not acknowledged may still be sent. Default: send-deadline.ts. */
  sendDeadlineMs?: number;
};
