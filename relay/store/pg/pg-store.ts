/**
 * The relay's store on PostgreSQL (`--database-url postgres://…`): many merchants, several instances
 * on one database. Commits per merchant (pg-committer.ts), keys and tokens from memory
 * (pg-directory.ts), news from other instances and outage handling (pg-feed.ts), reads by cursor here.
 */
import pg from 'pg';
import type { Environment } from '../../../shared/domain.js';
import type { RelayEvent } from '../../../shared/relay-wire.js';
import {
  rowToEvent,
  type Administration,
  type CommitWaiter,
  type EventRow,
  type ManyMerchants,
  type OwnerViewStore,
  type PrunedRange,
  type RelayStore,
  type ServiceKey,
  type StoreListener,
  type TenantDelivery,
  type TillIdentity,
} from '../index.js';
import type { LogFn } from '../../ops/index.js';
import { PgCommitter } from './pg-committer.js';
import { assertMasterKey, type KeyInUse } from './master-key.js';
import { PgDirectory } from './pg-directory.js';
import { PgFeed } from './pg-feed.js';
import { checkConnectionBudget, waitForDatabase } from './pg-startup.js';
import { connectionConfig, openPgPool } from './pg-pool.js';
import { UsageRecorder } from './usage-recorder.js';
import { PgOwnerView } from './owner-view-pg.js';
import { pruneDue } from './pg-prune.js';
import { pgAdministration } from './admin/index.js';
import { poolReadGate, type PoolReads, type ReadGate } from './read-gate.js';

export type PgStoreOptions = {
  databaseUrl: string;
  masterKey: Buffer;
  /** A previous master key kept readable during a rotation (RELAY_MASTER_KEY_PREVIOUS). */
  previousMasterKeys?: Buffer[];
  maxBatch: number;
  /** How often usage figures and last-used times are written (ms; default 5000). */
  usageFlushMs?: number;
  /** Connections per instance (commits of different merchants run in parallel on them). */
  poolSize?: number;
  /** Period of the catch-up read that bounds the cost of a lost notification. */
  catchUpMs?: number;
  /** How many instances share the database (for the max_connections check at start; default 2). */
  expectedInstances?: number;
  /** Wait (with back-off, logged) for a database unreachable at start, instead of failing. */
  waitForDatabase?: boolean;
  /** The gate on the tills' reads of the log (read-gate.ts, poolReadGate). */
  reads?: PoolReads;
  log: LogFn;
};

const PREVIOUS_KEY =
  "This instance's master key is not the relay's; it runs on the previous key it was given. Start it with the current key file before that one is removed.";

const COLUMNS = 'seq, reference, environment, key_id, received_at, webhook_created_at, transaction_json';

type Row = Omit<EventRow, 'seq'> & { seq: string };
const toRow = (r: Row): EventRow => ({ ...r, seq: Number(r.seq) });

export class PgStore implements RelayStore {
  readonly kind = 'postgres' as const;
  readonly tenancy: ManyMerchants = {
    merchants: 'many',
    count: () => this.directory.merchantCount(),
    // Keys set aside because their secret does not open with this instance's master keys.
    unreadableKeys: () => this.directory.unreadableKeys(),
    masterKeyInUse: () => this.keyInUse,
    highestSeq: async () => {
      const { rows } = await this.pool.query<{ n: string }>('SELECT coalesce(max(last_seq), 0) AS n FROM merchants');
      return Number(rows[0]?.n ?? 0);
    },
  };
  private keyInUse: KeyInUse = 'current';
  private admin: Administration | null = null;
  private listener: StoreListener | null = null;
  private watched: () => Iterable<string> = () => [];
  private reloading: Promise<void> | null = null;
  private readonly committer: PgCommitter;
  private readonly feed: PgFeed;
  private readonly usage: UsageRecorder;
  readonly ownerView: OwnerViewStore;
  private readonly masterKey: Buffer;
  private readonly reads: ReadGate;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly directory: PgDirectory,
    options: PgStoreOptions,
  ) {
    this.masterKey = options.masterKey;
    const poolSize = options.poolSize ?? 10;
    this.reads = poolReadGate(poolSize, options.reads);
    this.usage = new UsageRecorder(pool, options.log);
    this.usage.start(options.usageFlushMs ?? 5_000);
    this.ownerView = new PgOwnerView(pool);
    this.feed = new PgFeed(pool, {
      connection: connectionConfig(options.databaseUrl),
      catchUpMs: options.catchUpMs ?? 1_000,
      watched: () => this.watched(),
      log: options.log,
      handlers: {
        advanced: (merchantId, lastSeq) => this.listener?.advanced(merchantId, lastSeq),
        authVersion: (version) => {
          if (version === null || version !== this.directory.version) void this.reloadDirectory();
        },
        recovered: () => void this.reloadDirectory(),
      },
    });
    pool.on('error', (err) => this.feed.unavailable(err));
    this.committer = new PgCommitter(pool, {
      maxBatch: options.maxBatch,
      available: () => this.feed.isAvailable,
      unavailable: (err) => this.feed.unavailable(err),
      committed: (report) => {
        this.usage.committed(report);
        this.listener?.committed(report);
      },
      log: options.log,
    });
  }

  static async open(options: PgStoreOptions): Promise<PgStore> {
    const poolSize = options.poolSize ?? 10;
    const open = () => openPgPool(options.databaseUrl, poolSize);
    const pool = options.waitForDatabase ? await waitForDatabase(open, { log: options.log }) : await open();
    try {
      await checkConnectionBudget(pool, { poolSize, instances: options.expectedInstances ?? 2 }, options.log);
      const keys = [options.masterKey, ...(options.previousMasterKeys ?? [])];
      // Another key than the relay's is a start-up error; one secret that does not open is only set aside.
      const keyInUse = await assertMasterKey(pool, keys, true);
      if (keyInUse === 'previous') options.log({ level: 'error', msg: 'master_key_previous', error: PREVIOUS_KEY });
      const directory = new PgDirectory(keys, options.log);
      await directory.reload(pool);
      const store = new PgStore(pool, directory, options);
      store.keyInUse = keyInUse;
      await store.feed.start();
      return store;
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw err;
    }
  }

  private reloadDirectory(): Promise<void> {
    this.reloading ??= this.directory
      .reload(this.pool)
      .then(
        () => this.listener?.authChanged(),
        (err: Error) => this.feed.unavailable(err),
      )
      .finally(() => {
        this.reloading = null;
      });
    return this.reloading;
  }

  findKey(publicId: string): ServiceKey | undefined {
    return this.directory.findKey(publicId);
  }

  findTill(tokenHash: string): TillIdentity | undefined {
    const till = this.directory.findTill(tokenHash);
    if (till) this.usage.tillSeen(till.merchantId, till.label, tokenHash);
    return till;
  }

  noteRead(till: TillIdentity, seq: number): void {
    this.usage.tillRead(till, seq);
  }

  noteRejection(keyId: string, reason: string): void {
    const key = this.directory.findKey(keyId);
    if (key) this.usage.rejected(key.merchantId, reason);
  }

  /** The admin API's changes and reads, on this instance's pool (they are few) with its master key. */
  administration(): Administration {
    this.admin ??= pgAdministration(this.pool, this.masterKey);
    return this.admin;
  }

  /** Writes the usage and read marks counted so far (tests; the timer does it every few seconds). */
  flushUsage(): Promise<void> {
    return this.usage.flush();
  }

  enqueue(delivery: TenantDelivery, waiter: CommitWaiter): void {
    this.committer.enqueue(delivery, waiter);
  }

  flush(): void {
    this.committer.flush();
  }

  logId(merchantId: string): string {
    return this.directory.logId(merchantId) ?? '';
  }

  async lastSeq(merchantId: string): Promise<number> {
    const { rows } = await this.read<{ last_seq: string }>('relay_last_seq', 'SELECT last_seq FROM merchants WHERE id = $1', [merchantId]);
    return Number(rows[0]?.last_seq ?? 0);
  }

  async rowsAfter(merchantId: string, after: number, limit: number, environment?: Environment): Promise<EventRow[]> {
    const { rows } = environment
      ? await this.read<Row>(
          'relay_rows_after_env',
          `SELECT ${COLUMNS} FROM events WHERE merchant_id = $1 AND environment = $4 AND seq > $2 ORDER BY seq LIMIT $3`,
          [merchantId, after, limit, environment],
        )
      : await this.read<Row>(
          'relay_rows_after',
          `SELECT ${COLUMNS} FROM events WHERE merchant_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
          [merchantId, after, limit],
        );
    return rows.map(toRow);
  }

  byReference(merchantId: string, reference: string, environment?: Environment): Promise<RelayEvent | undefined> {
    return this.latestWhere('relay_by_reference', 'reference', merchantId, reference, environment);
  }

  byClientReference(merchantId: string, clientReference: string, environment?: Environment): Promise<RelayEvent | undefined> {
    return this.latestWhere('relay_by_client_reference', 'client_reference', merchantId, clientReference, environment);
  }

  /** The merchant's newest event whose `column` is `value` (in `environment` when given). */
  private async latestWhere(
    statement: string,
    column: 'reference' | 'client_reference',
    merchantId: string,
    value: string,
    environment: Environment | undefined,
  ): Promise<RelayEvent | undefined> {
    const { rows } = await this.read<Row>(
      statement,
      `SELECT ${COLUMNS} FROM events WHERE merchant_id = $1 AND ${column} = $2 AND ($3::text IS NULL OR environment = $3)
       ORDER BY seq DESC LIMIT 1`,
      [merchantId, value, environment ?? null],
    );
    return rows[0] ? rowToEvent(toRow(rows[0])) : undefined;
  }

  /** One retention batch per merchant due (store/pg/pg-prune.ts). */
  prune(before: string, limit: number): Promise<PrunedRange[]> {
    return pruneDue((name, text, values) => this.query(name, text, values), before, limit);
  }

  async prunedThrough(merchantId: string): Promise<number> {
    const { rows } = await this.read<{ pruned_through: string }>(
      'relay_pruned_through',
      'SELECT pruned_through FROM event_retention WHERE merchant_id = $1',
      [merchantId],
    );
    return Number(rows[0]?.pruned_through ?? 0);
  }

  async health(): Promise<{ ok: boolean; reason?: string }> {
    if (!this.feed.isAvailable) return { ok: false, reason: `database unreachable: ${this.feed.reason}` };
    try {
      await this.pool.query('SELECT 1');
      return { ok: true };
    } catch (err) {
      this.feed.unavailable(err as Error);
      return { ok: false, reason: `database unreachable: ${(err as Error).message}` };
    }
  }

  watch(listener: StoreListener, watched: () => Iterable<string>): void {
    this.listener = listener;
    this.watched = watched;
  }

  async close(): Promise<void> {
    await this.committer.close();
    await this.usage.close();
    await this.feed.close();
    await this.pool.end();
  }

  /** A read of one merchant's rows (its id is $1), let in by the read gate: commits keep connections of their own. */
  private read<R extends pg.QueryResultRow>(name: string, text: string, values: [string, ...unknown[]]): Promise<pg.QueryResult<R>> {
    return this.reads.run(values[0], () => this.query<R>(name, text, values));
  }

  /** A read; a failure for want of the database marks it unavailable (and is thrown to the caller). */
  private async query<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>({ name, text, values });
    } catch (err) {
      if (!(err as { code?: string }).code) this.feed.unavailable(err as Error);
      throw err;
    }
  }
}
