/** What `startRelay` takes and what it gives back (http/server.ts). */
import type { RelayConfig, RelayConfigInput, LogFn, RelayMetrics } from '../ops/index.js';
import type { StoreKind } from '../store/index.js';

export type RelayOptions = {
  port?: number;
  host?: string;
  /** SQLite (one merchant): the folder of relay.sqlite. */
  dataDir?: string;
  /** PostgreSQL (many merchants, several instances): the database. Takes the place of dataDir. */
  databaseUrl?: string;
  /** PostgreSQL: the master key that opens the service secrets (RELAY_MASTER_KEY). */
  masterKey?: Buffer;
  /** PostgreSQL: a previous master key still accepted during a rotation (RELAY_MASTER_KEY_PREVIOUS). */
  previousMasterKeys?: Buffer[];
  /** The admin API's port (its own listener; none when undefined). */
  adminPort?: number;
  /** The admin API's address (default 127.0.0.1). */
  adminHost?: string;
  /** PostgreSQL: period of the catch-up read that bounds the delay of a lost notification (ms). */
  catchUpMs?: number;
  /** PostgreSQL: pool size, instances sharing the database, and whether to wait for it at start (the CLI's `serve` does). */
  pg?: { poolSize?: number; expectedInstances?: number; waitForDatabase?: boolean };
  /**
   * The config object (same shape as the JSON config file). It is validated again here, so a
   * hand-built object gets the defaults and a bad one fails with the field named. With PostgreSQL it
   * holds the settings only: keys and tokens live in the database.
   */
  config: RelayConfig | RelayConfigInput;
  /** Injected clock (ms). */
  now?: () => number;
  /** Days events are kept (default 90; 0 keeps every event): see store/retention.ts. */
  retentionDays?: number;
  /** How often retention runs a pass (default hourly). */
  pruneIntervalMs?: number;
  /** Structured logs; default JSON lines to stderr. */
  log?: LogFn;
};

export type RunningRelay = {
  url: string;
  /** The admin API's base URL, when `adminPort` was given. */
  adminUrl?: string;
  store: StoreKind;
  /** Stops accepting, finishes in-flight requests, ends SSE streams, closes the store. */
  close(): Promise<void>;
  /** Swaps in a new config (settings; with SQLite also keys and tokens: streams of revoked tokens end). */
  setConfig(config: RelayConfig | RelayConfigInput): void;
  /** Runs a retention pass now (it also runs on its own); resolves with the number of events pruned. */
  prune(): Promise<number>;
  metrics: RelayMetrics;
};
