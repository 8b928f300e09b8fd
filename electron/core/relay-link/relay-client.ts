/**
 * The till's side of the relay: on every (re)connect it first pages through everything after the
 * last sequence it stored (`GET /v1/transactions?after=`), then follows the Server-Sent Events stream
 * (`GET /v1/events`, `Last-Event-ID`), both through undici. A silent stream (no heartbeat within
 * `heartbeatTimeoutMs`) counts as broken. Reconnects back off exponentially with jitter; a 429 (the till's
 * share of the relay spent for now) is no failure: the till waits its Retry-After, still connected. The last
 * sequence is kept in SQLite per environment with the relay log it belongs to (the relay's `logId`).
 * The cursor goes back to 0 when the relay URL changes, when the relay names another log (its
 * database was wiped or replaced: numbers start from 1 again), or when the relay says the cursor is
 * beyond its last sequence (409 CURSOR_AHEAD on paging, or the stream's `hello` lastSeq), or when the
 * event at the cursor is not the one the till read there (the relay's database was restored from a
 * backup: 409 CURSOR_FORKED, or the stream's `reset`; the till names that event's receivedAt); reading
 * again from 0 is harmless, final transactions are kept once per reference. When the relay's retention
 * pruned events the till never read (410 CURSOR_PRUNED), the cursor moves on to the oldest kept event.
 */
import { Agent, request } from 'undici';
import {
  RELAY_LOG_ID_HEADER,
  AFTER_RECEIVED_AT_PARAM,
  relayCursorAheadSchema,
  relayCursorForkedSchema,
  relayCursorPrunedSchema,
  relayEventSchema,
  type RelayEvent,
} from '../../../shared/relay-wire.js';
import type { RelayState } from '../../../shared/ipc/contract.js';
import type { Db } from '../storage/index.js';
import type { Logger } from '../logger.js';
import { RelayCursor, receivedAtOf } from './relay-cursor.js';
import { lenientPageSchema, refusal, RelayHttpError } from './relay-answers.js';
import { SseParser } from './sse-parser.js';
import { onHello, onReset } from './stream-notices.js';
import type { Environment } from '../../../shared/domain.js';

export type RelayClientOptions = {
  environment: Environment;
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

/** A silent stream is dead (a dropped network says nothing): the relay beats every 5 s, so this is two or more missed. */
export const HEARTBEAT_TIMEOUT_MS = 12_000;
export class RelayClient {
  private readonly agent: Agent;
  private readonly cursor: RelayCursor;
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
      bodyTimeout: o.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS,
    });
    this.cursor = new RelayCursor(o.db, o.log, o.environment, o.relayUrl);
  }

  get currentState(): RelayState {
    return this.state;
  }

  get lastSeq(): number {
    return this.cursor.lastSeq;
  }

  /** The relay log the stored cursor belongs to; null until the relay first names it. */
  get logId(): string | null {
    return this.cursor.logId;
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
    let resyncs = 0;
    while (!this.stopped) {
      try {
        await this.catchUp();
        const outcome = await this.follow();
        if (outcome === 'resync' && resyncs < 2) {
          resyncs += 1; // the stream's hello reset the cursor: catch up at once (a relay that keeps doing it backs off)
          continue;
        }
        resyncs = 0;
        if (!this.stopped)
          this.o.log.warn(outcome === 'resync' ? 'relay.resync_repeated' : 'relay.stream_ended', { environment: this.o.environment });
      } catch (error) {
        if (this.stopped) break;
        const status = error instanceof RelayHttpError ? error.status : null;
        if (error instanceof RelayHttpError && error.retryAfterMs !== null) {
          await this.waitItsTurn(error.retryAfterMs);
          continue;
        }
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

  /**
   * The relay answered, knew the till and asked it to wait (429, its read share spent): no failure and
   * nothing alarming to show. Every result stays at the relay and is read from the cursor after the wait;
   * a little spread keeps tills refused together from coming back together.
   */
  private async waitItsTurn(ms: number): Promise<void> {
    this.failures = 0;
    this.o.log.info('relay.rate_limited', { environment: this.o.environment, retryAfterMs: ms, lost: 'nothing' });
    this.setState('connected');
    await this.sleep(ms + Math.random() * Math.min(1_000, ms / 10));
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

  /** Where the till resumes: its cursor, and the event it read there when it knows it. */
  private resumeParams(): Record<string, string> {
    const receivedAt = this.cursor.receivedAt;
    return { after: String(this.lastSeq), ...(receivedAt ? { [AFTER_RECEIVED_AT_PARAM]: receivedAt } : {}) };
  }

  private url(path: string, params: Record<string, string>): URL {
    const url = new URL(path, `${this.o.relayUrl.replace(/\/+$/, '')}/`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url;
  }

  /**
   * Page through everything after the stored sequence. A page from another log, or a 409
   * CURSOR_AHEAD, resets the cursor to 0 and reads again from there (once per call: a relay that
   * keeps changing its mind is treated as a failed connection).
   */
  private async catchUp(): Promise<void> {
    let resets = 0;
    let skips = 0;
    for (let pages = 0; pages < 10_000 && !this.stopped; pages += 1) {
      const after = this.lastSeq;
      const response = await request(
        this.url('v1/transactions', { ...this.resumeParams(), limit: '500', environment: this.o.environment }),
        {
          dispatcher: this.agent,
          headers: this.headers(),
          signal: this.abort.signal,
        },
      );
      if (response.statusCode === 409) {
        const body: unknown = await response.body.json().catch(() => null);
        const ahead = relayCursorAheadSchema.or(relayCursorForkedSchema).safeParse(body);
        if (!ahead.success || after === 0 || resets > 0) throw new RelayHttpError(409);
        resets += 1;
        const { code, logId, lastSeq } = ahead.data.error;
        const stored = this.logId;
        const reason = stored !== null && stored !== logId ? 'log_changed' : code === 'CURSOR_FORKED' ? 'log_forked' : 'cursor_ahead';
        this.cursor.reset(reason, logId, { relayLastSeq: lastSeq });
        continue;
      }
      if (response.statusCode === 410) {
        // CURSOR_PRUNED: events this till never read were pruned by the relay's retention; read on from the oldest kept.
        const pruned = relayCursorPrunedSchema.safeParse(await response.body.json().catch(() => null));
        if (!pruned.success || skips > 2 || !this.cursor.skipPruned(after, pruned.data.error)) throw new RelayHttpError(410);
        skips += 1;
        continue;
      }
      if (response.statusCode !== 200) {
        await response.body.dump();
        throw refusal(response.statusCode, response.headers);
      }
      const page = lenientPageSchema.parse(await response.body.json());
      const header = response.headers[RELAY_LOG_ID_HEADER];
      if (this.cursor.checkLog(page.logId ?? (typeof header === 'string' ? header : undefined))) {
        // This page is numbered in another log than the cursor: read the new log from 0.
        if (resets > 0) throw new Error('relay log id changed twice during one catch-up');
        resets += 1;
        continue;
      }
      for (const item of page.items) {
        const parsed = relayEventSchema.safeParse(item);
        if (parsed.success) this.handle(parsed.data);
        else {
          const seq = (item as { seq?: unknown } | null)?.seq;
          this.o.log.warn('relay.bad_event', {
            environment: this.o.environment,
            id: typeof seq === 'number' ? seq : null,
            issue: parsed.error.issues[0]?.message,
          });
        }
      }
      if (page.nextAfter > this.lastSeq) this.cursor.save(page.nextAfter, receivedAtOf(page.items, page.nextAfter));
      if (!page.hasMore) return;
    }
  }

  /** Follows the stream; 'resync' when its hello reset the cursor (catch up again before following). */
  private async follow(): Promise<'ended' | 'resync'> {
    const params = this.resumeParams();
    const after = params.after as string;
    const response = await request(this.url('v1/events', { environment: this.o.environment, ...params }), {
      dispatcher: this.agent,
      headers: { ...this.headers(), accept: 'text/event-stream', 'last-event-id': after },
      signal: this.abort.signal,
    });
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw refusal(response.statusCode, response.headers);
    }
    this.failures = 0;
    this.setState('connected');
    let resync = false;
    const parser = new SseParser((message) => {
      if (resync) return;
      if (message.event === 'hello' || message.event === 'reset') {
        const { cursor, o } = this;
        resync =
          message.event === 'hello'
            ? onHello(cursor, o.log, o.environment, message.data)
            : onReset(cursor, o.log, o.environment, message.data, Number(after));
        return;
      }
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
    for await (const chunk of response.body) {
      parser.push(chunk as Buffer);
      if (resync) break; // leaving the loop closes the stream
    }
    return resync ? 'resync' : 'ended';
  }

  private handle(event: RelayEvent): void {
    if (event.environment === this.o.environment) this.o.onEvent(event);
    if (event.seq > this.lastSeq) this.cursor.save(event.seq, event.receivedAt);
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
