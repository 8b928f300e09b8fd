/**
 * How an instance hears about what happened elsewhere, and how it notices the database is gone.
 *
 * - LISTEN on a dedicated connection: `relay_events` ("<merchant> <lastSeq>", sent by relay_commit at
 *   COMMIT) and `relay_auth` (any change to merchants, keys, tokens). A notification is only a
 *   wake-up: the tills' streams then read the table from their cursors.
 * - A periodic catch-up (every catchUpMs) reads the watched merchants' counters and the auth
 *   version, so a lost notification or a dropped listener costs at most that delay, never an event.
 * - When a query fails for want of the database, the instance is marked unavailable (deliveries get
 *   503 at once, /healthz fails) and probes with a doubling back-off until the database answers.
 */
import pg from 'pg';
import type { LogFn } from '../../ops/index.js';

export type FeedHandlers = {
  advanced(merchantId: string, lastSeq: number): void;
  /** auth_version moved past `known` (or a relay_auth notification came). */
  authVersion(version: number | null): void;
  /** The database answers again after an outage. */
  recovered(): void;
};

const MAX_BACKOFF_MS = 2_000;
const FIRST_BACKOFF_MS = 100;

export class PgFeed {
  private available = true;
  private lastError = '';
  private probeDelay = FIRST_BACKOFF_MS;
  private probeTimer: NodeJS.Timeout | null = null;
  private listener: pg.Client | null = null;
  private listenerDelay = FIRST_BACKOFF_MS;
  private listenerTimer: NodeJS.Timeout | null = null;
  private readonly catchUpTimer: NodeJS.Timeout;
  private closed = false;
  private ticking = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: {
      connection: pg.ClientConfig;
      catchUpMs: number;
      watched: () => Iterable<string>;
      handlers: FeedHandlers;
      log: LogFn;
    },
  ) {
    this.catchUpTimer = setInterval(() => void this.catchUp(), options.catchUpMs);
    this.catchUpTimer.unref();
  }

  get isAvailable(): boolean {
    return this.available;
  }

  get reason(): string {
    return this.lastError;
  }

  /** Opens the LISTEN connection (throws if the database cannot be reached at start). */
  async start(): Promise<void> {
    await this.connectListener();
  }

  /** A query failed for want of the database: refuse deliveries and probe until it answers. */
  unavailable(err: Error): void {
    if (this.closed) return;
    if (this.available) {
      this.available = false;
      this.lastError = err.message;
      this.options.log({ level: 'error', msg: 'database_unreachable', error: err.message });
    }
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    if (this.probeTimer || this.closed) return;
    this.probeTimer = setTimeout(() => void this.probe(), this.probeDelay);
    this.probeTimer.unref();
    this.probeDelay = Math.min(MAX_BACKOFF_MS, this.probeDelay * 2);
  }

  private async probe(): Promise<void> {
    this.probeTimer = null;
    try {
      await this.pool.query('SELECT 1');
    } catch (err) {
      this.lastError = (err as Error).message;
      this.scheduleProbe();
      return;
    }
    this.available = true;
    this.probeDelay = FIRST_BACKOFF_MS;
    this.options.log({ level: 'info', msg: 'database_reachable' });
    this.options.handlers.recovered();
    if (!this.listener) this.scheduleListener(0);
    await this.catchUp();
  }

  private async connectListener(): Promise<void> {
    const client = new pg.Client(this.options.connection);
    client.on('notification', (n) => this.notified(n.channel, n.payload ?? ''));
    const dropped = (err?: Error) => {
      if (this.listener !== client) return;
      this.listener = null;
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      if (this.closed) return;
      this.options.log({ level: 'warn', msg: 'listener_dropped', error: err?.message ?? 'connection ended' });
      this.scheduleListener(this.listenerDelay);
      this.listenerDelay = Math.min(MAX_BACKOFF_MS, this.listenerDelay * 2);
    };
    client.on('error', dropped);
    client.on('end', () => dropped());
    await client.connect();
    await client.query('LISTEN relay_events');
    await client.query('LISTEN relay_auth');
    this.listener = client;
    this.listenerDelay = FIRST_BACKOFF_MS;
  }

  private scheduleListener(delay: number): void {
    if (this.listenerTimer || this.closed) return;
    this.listenerTimer = setTimeout(() => {
      this.listenerTimer = null;
      this.connectListener().then(
        // Whatever was committed while nobody listened is read now.
        () => void this.catchUp(),
        (err: Error) => {
          this.options.log({ level: 'warn', msg: 'listener_reconnect_failed', error: err.message });
          this.scheduleListener(this.listenerDelay);
          this.listenerDelay = Math.min(MAX_BACKOFF_MS, this.listenerDelay * 2);
        },
      );
    }, delay);
    this.listenerTimer.unref();
  }

  private notified(channel: string, payload: string): void {
    if (channel === 'relay_auth') return this.options.handlers.authVersion(null);
    const space = payload.lastIndexOf(' ');
    const seq = Number(payload.slice(space + 1));
    if (space > 0 && Number.isSafeInteger(seq)) this.options.handlers.advanced(payload.slice(0, space), seq);
  }

  /** Reads the watched merchants' counters and the auth version (also the liveness check). */
  async catchUp(): Promise<void> {
    if (this.ticking || this.closed || !this.available) return;
    this.ticking = true;
    try {
      const ids = [...this.options.watched()];
      const { rows } = await this.pool.query<{ version: string; id: string | null; last_seq: string | null }>({
        name: 'relay_catch_up',
        text: 'SELECT a.version, m.id, m.last_seq FROM auth_version a LEFT JOIN merchants m ON m.id = ANY($1)',
        values: [ids],
      });
      this.options.handlers.authVersion(Number(rows[0]?.version ?? 0));
      for (const r of rows) if (r.id !== null) this.options.handlers.advanced(r.id, Number(r.last_seq));
    } catch (err) {
      this.unavailable(err as Error);
    } finally {
      this.ticking = false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.catchUpTimer);
    if (this.probeTimer) clearTimeout(this.probeTimer);
    if (this.listenerTimer) clearTimeout(this.listenerTimer);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
  }
}
