/**
 * The embedded store: one merchant, its event log in SQLite (`<data>/relay.sqlite`), its keys and
 * till tokens in the config file (reloaded by `setConfig`). Reads are synchronous underneath; they
 * are offered through the same asynchronous interface as PostgreSQL's.
 */
import { timingSafeEqual } from 'node:crypto';
import { isDamage } from '../../../shared/sqlite-file.js';
import type { RelayEvent } from '../../../shared/relay-wire.js';
import type { Environment } from '../../../shared/domain.js';
import type { RelayConfig, LogFn } from '../../ops/index.js';
import { openRelayDatabase } from './db.js';
import { EventLog } from './event-log.js';
import { GroupCommitter } from './group-commit.js';
import { SqliteOwnerView } from './owner-view-sqlite.js';
import { readTillReads } from './till-reads-sqlite.js';
import { ReadMarks } from '../index.js';
import type {
  CommitWaiter,
  OneMerchant,
  OwnerViewStore,
  EventRow,
  PrunedRange,
  RelayStore,
  ServiceKey,
  StoreListener,
  TenantDelivery,
  TillIdentity,
  TillRead,
  Unsupported,
} from '../index.js';

/** The one tenant of a single-merchant (SQLite) relay. */
export const SOLE_MERCHANT = 'MCH_default';

const NO_ADMINISTRATION: Unsupported = {
  unsupported:
    'The admin API serves the multi-merchant relay on PostgreSQL (--database-url); a single-shop relay is administered with its config file',
};

type Till = TillIdentity & { digest: Buffer };

function tillsOf(config: RelayConfig): Till[] {
  return config.tills.map((t) => ({
    merchantId: SOLE_MERCHANT,
    label: t.label,
    tokenHash: t.tokenHash,
    digest: Buffer.from(t.tokenHash.slice('sha256:'.length), 'hex'),
  }));
}

export class SqliteStore implements RelayStore {
  readonly kind = 'sqlite' as const;
  readonly tenancy: OneMerchant = {
    merchants: 'one',
    lastSeq: () => this.lastSeqNow(),
    setConfig: (config) => this.setConfig(config),
  };
  private keys = new Map<string, ServiceKey>();
  private tills: Till[] = [];
  private listener: StoreListener | null = null;
  /** What a read met, once one met a damaged page. */
  private damage: string | null = null;
  private readonly db;
  private readonly log: EventLog;
  private readonly committer: GroupCommitter;
  private readonly reads = new ReadMarks();
  private readonly readsTimer: NodeJS.Timeout;
  private readonly logFn: LogFn;
  readonly ownerView: OwnerViewStore;

  /** `readsFlushMs`: how often the tills' read marks are written (default 5000). */
  constructor(options: { dataDir: string; config: RelayConfig; log: LogFn; readsFlushMs?: number }) {
    const { config } = options;
    this.db = openRelayDatabase(options.dataDir, { check: true });
    try {
      this.log = new EventLog(this.db);
      this.ownerView = new SqliteOwnerView(this.db, SOLE_MERCHANT);
      this.committer = new GroupCommitter({
        dataDir: options.dataDir,
        busyTimeoutMs: config.busyTimeoutMs,
        maxBatch: config.groupCommitMaxBatch,
        windowMs: config.groupCommitWindowMs,
        log: options.log,
        onCommit: (outcomes) => this.listener?.committed(outcomes.map((o) => ({ ...o, delivery: o.delivery as TenantDelivery }))),
      });
    } catch (err) {
      this.db.close();
      throw err;
    }
    this.setConfig(config);
    this.logFn = options.log;
    this.readsTimer = setInterval(() => this.flushReads(), options.readsFlushMs ?? 5_000);
    this.readsTimer.unref();
  }

  /** Keys and tokens from a (re)loaded config file. */
  setConfig(config: RelayConfig): void {
    this.keys = new Map(config.keys.map((k) => [k.publicId, { publicId: k.publicId, secret: k.secret, merchantId: SOLE_MERCHANT }]));
    this.tills = tillsOf(config);
    this.listener?.authChanged();
  }

  /** Keys and tokens live in the config file: there is nothing to administer here. */
  administration(): Unsupported {
    return NO_ADMINISTRATION;
  }

  findKey(publicId: string): ServiceKey | undefined {
    return this.keys.get(publicId);
  }

  /** Every configured hash is compared, in constant time. */
  findTill(tokenHash: string): TillIdentity | undefined {
    const given = Buffer.from(tokenHash.slice('sha256:'.length), 'hex');
    if (given.length !== 32) return undefined;
    let found: Till | undefined;
    for (const t of this.tills) {
      if (timingSafeEqual(given, t.digest) && !found) found = t;
    }
    return found && { merchantId: found.merchantId, label: found.label, tokenHash: found.tokenHash };
  }

  noteRead(till: TillIdentity, seq: number): void {
    this.reads.note(till, seq);
  }

  /** Writes the read marks noted so far (the timer does it every few seconds; a failed write keeps them). */
  flushReads(): void {
    const batch = this.reads.take();
    try {
      this.committer.writeReads(batch);
    } catch (err) {
      this.logFn({ level: 'warn', msg: 'till_reads_write_failed', error: (err as Error).message });
      this.reads.putBack(batch);
    }
  }

  /** How far each till has read (store/till-reads.ts). */
  async tillReads(): Promise<TillRead[]> {
    return this.reading(() => readTillReads(this.db, SOLE_MERCHANT));
  }

  enqueue(delivery: TenantDelivery, waiter: CommitWaiter): void {
    this.committer.enqueue(delivery, waiter);
  }

  flush(): void {
    // With a commit window the committer commits when the window closes.
    if (!this.committer.windowed) this.committer.flush();
  }

  logId(): string {
    return this.log.logId;
  }

  async lastSeq(): Promise<number> {
    return this.log.lastSeq();
  }

  /** Synchronous: /healthz and the metrics read it without waiting. */
  lastSeqNow(): number {
    return this.log.lastSeq();
  }

  async rowsAfter(_merchantId: string, after: number, limit: number, environment?: Environment): Promise<EventRow[]> {
    return this.reading(() => this.log.rowsAfter(after, limit, environment));
  }

  async byReference(_merchantId: string, reference: string, environment?: Environment): Promise<RelayEvent | undefined> {
    return this.reading(() => this.log.getByReference(reference, environment));
  }

  async byClientReference(_merchantId: string, clientReference: string, environment?: Environment): Promise<RelayEvent | undefined> {
    return this.reading(() => this.log.getByClientReference(clientReference, environment));
  }

  async prune(before: string, limit: number): Promise<PrunedRange[]> {
    const stretch = this.committer.prune(before, limit);
    return stretch ? [{ merchantId: SOLE_MERCHANT, ...stretch }] : [];
  }

  async prunedThrough(): Promise<number> {
    return this.reading(() => this.log.prunedThrough());
  }

  /** Fails once a read met a damaged page, or when the cheap probe read fails. */
  async health(): Promise<{ ok: boolean; reason?: string }> {
    const problem = this.damage ?? this.log.probe();
    return problem ? { ok: false, reason: `relay.sqlite cannot be read: ${problem}` } : { ok: true };
  }

  /** Runs a read; a damaged page is remembered for /healthz (reads elsewhere in the file may still work). */
  private reading<T>(read: () => T): T {
    try {
      return read();
    } catch (err) {
      if (isDamage(err)) this.damage = (err as Error).message;
      throw err;
    }
  }

  watch(listener: StoreListener): void {
    this.listener = listener;
  }

  async close(): Promise<void> {
    clearInterval(this.readsTimer);
    this.flushReads();
    await this.committer.close();
    this.db.close();
  }
}
