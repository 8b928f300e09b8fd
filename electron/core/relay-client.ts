/**
 * The till's side of the relay: on every (re)connect it first pages through everything after the
 * last sequence it stored (`GET /v1/transactions?after=`), then follows the Server-Sent Events stream
 * (`GET /v1/events`, `Last-Event-ID`), both through undici. A silent stream (no heartbeat within
 * `heartbeatTimeoutMs`) counts as broken. Reconnects back off exponentially with jitter. The last
 * sequence is kept in SQLite per environment (reset when the relay URL changes).
 */
import { Agent, request } from 'undici';
import { z } from 'zod';
import { relayEventSchema, relayPageSchema, type RelayEvent } from '../../shared/relay-wire.js';
import type { RelayState, TillEnvironment } from '../../shared/ipc/contract.js';
import type { Db } from './database.js';
import type { Logger } from './logger.js';
import { SseParser } from './sse-parser.js';

export type RelayClientOptions = {
  environment: TillEnvironment;
  relayUrl: string;
  token: string;
  db: Db;
  log: Logger;
  onEvent: (event: RelayEvent) => void;
  onState: (state: RelayState) => void;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  heartbeatTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Consecutive failures after which the state is reported as offline instead of reconnecting. */
  offlineAfter?: number;
};

/**
 * A catch-up page read item by item: one event the till cannot read (a field a newer service added in a
 * shape this version refuses) is logged and stepped over, exactly as on the live stream, instead of failing
 * the whole page and so blocking every later result behind it at each reconnect.
 */
const lenientPageSchema = relayPageSchema.extend({ items: z.array(z.unknown()) });

class RelayHttpError extends Error {
  constructor(readonly status: number) {
    super(`relay answered HTTP ${status}`);
  }
}

export class RelayClient {
  private readonly agent: Agent;
  private readonly abort = new AbortController();
  private stopped = false;
  private loop: Promise<void> | null = null;
  private state: RelayState = 'offline';
  private failures = 0;
  private sleepTimer: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly o: RelayClientOptions) {
    this.agent = new Agent({
      connect: { timeout: o.connectTimeoutMs ?? 5_000 },
      headersTimeout: o.connectTimeoutMs ?? 5_000,
      bodyTimeout: o.heartbeatTimeoutMs ?? 45_000,
    });
    const row = o.db.prepare('SELECT relay_url FROM relay_cursor WHERE environment = ?').get(o.environment) as { relay_url: string } | undefined;
    if (!row || row.relay_url !== o.relayUrl) {
      o.db
        .prepare('INSERT INTO relay_cursor (environment, relay_url, last_seq) VALUES (?, ?, 0) ON CONFLICT (environment) DO UPDATE SET relay_url = excluded.relay_url, last_seq = 0')
        .run(o.environment, o.relayUrl);
    }
  }

  get currentState(): RelayState {
    return this.state;
  }

  get lastSeq(): number {
    const row = this.o.db.prepare('SELECT last_seq FROM relay_cursor WHERE environment = ?').get(this.o.environment) as { last_seq: number } | undefined;
    return row?.last_seq ?? 0;
  }

  start(): void {
    this.setState('reconnecting');
    this.loop ??= this.run();
  }

  private setState(state: RelayState): void {
    if (state === this.state) return;
    this.state = state;
    this.o.log.info('relay.state', { environment: this.o.environment, state });
    this.o.onState(state);
  }

  private async run(): Promise<void> {
    const initial = this.o.initialBackoffMs ?? 500;
    const max = this.o.maxBackoffMs ?? 30_000;
    while (!this.stopped) {
      try {
        await this.catchUp();
        await this.follow();
        if (!this.stopped) this.o.log.warn('relay.stream_ended', { environment: this.o.environment });
      } catch (error) {
        if (this.stopped) break;
        const status = error instanceof RelayHttpError ? error.status : null;
        this.o.log.warn('relay.connection_failed', {
          environment: this.o.environment,
          ...(status ? { status } : { error: (error as { code?: string }).code ?? (error as Error).message }),
        });
        if (status === 401 || status === 403) this.failures = Math.max(this.failures, this.o.offlineAfter ?? 4);
      }
      if (this.stopped) break;
      this.failures += 1;
      this.setState(this.failures >= (this.o.offlineAfter ?? 4) ? 'offline' : 'reconnecting');
      const exp = Math.min(max, initial * 2 ** Math.min(this.failures - 1, 16));
      await this.sleep(exp / 2 + Math.random() * (exp / 2));
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.sleepTimer = setTimeout(resolve, ms);
    });
  }

  private headers(): Record<string, string> {
    return { authorization: `Bearer ${this.o.token}`, accept: 'application/json' };
  }

  private url(path: string, params: Record<string, string>): URL {
    const url = new URL(path, `${this.o.relayUrl.replace(/\/+$/, '')}/`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url;
  }

  /** Page through everything after the stored sequence. */
  private async catchUp(): Promise<void> {
    for (let pages = 0; pages < 10_000 && !this.stopped; pages += 1) {
      const response = await request(this.url('v1/transactions', { after: String(this.lastSeq), limit: '500', environment: this.o.environment }), {
        dispatcher: this.agent,
        headers: this.headers(),
        signal: this.abort.signal,
      });
      if (response.statusCode !== 200) {
        await response.body.dump();
        throw new RelayHttpError(response.statusCode);
      }
      const page = lenientPageSchema.parse(await response.body.json());
      for (const item of page.items) {
        const parsed = relayEventSchema.safeParse(item);
        if (parsed.success) this.handle(parsed.data);
        else {
          const seq = (item as { seq?: unknown } | null)?.seq;
          this.o.log.warn('relay.bad_event', { environment: this.o.environment, id: typeof seq === 'number' ? seq : null, issue: parsed.error.issues[0]?.message });
        }
      }
      if (page.nextAfter > this.lastSeq) this.saveSeq(page.nextAfter);
      if (!page.hasMore) return;
    }
  }

  private async follow(): Promise<void> {
    const after = String(this.lastSeq);
    const response = await request(this.url('v1/events', { environment: this.o.environment, after }), {
      dispatcher: this.agent,
      headers: { ...this.headers(), accept: 'text/event-stream', 'last-event-id': after },
      signal: this.abort.signal,
    });
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw new RelayHttpError(response.statusCode);
    }
    this.failures = 0;
    this.setState('connected');
    const parser = new SseParser((message) => {
      if (message.event !== 'transaction') return;
      let json: unknown;
      try {
        json = JSON.parse(message.data);
      } catch {
        this.o.log.warn('relay.bad_event', { environment: this.o.environment, id: message.id });
        return;
      }
      const parsed = relayEventSchema.safeParse(json);
      if (!parsed.success) {
        this.o.log.warn('relay.bad_event', { environment: this.o.environment, id: message.id, issue: parsed.error.issues[0]?.message });
        return;
      }
      this.handle(parsed.data);
    });
    for await (const chunk of response.body) parser.push(chunk as Buffer);
  }

  private handle(event: RelayEvent): void {
    if (event.environment === this.o.environment) this.o.onEvent(event);
    if (event.seq > this.lastSeq) this.saveSeq(event.seq);
  }

  private saveSeq(seq: number): void {
    this.o.db.prepare('UPDATE relay_cursor SET last_seq = ? WHERE environment = ? AND last_seq < ?').run(seq, this.o.environment, seq);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    if (this.sleepTimer) clearTimeout(this.sleepTimer);
    this.wake?.();
    await this.loop?.catch(() => undefined);
    await this.agent.close().catch(() => undefined);
    this.setState('offline');
  }
}
