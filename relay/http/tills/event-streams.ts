/**
 * Server-Sent Events to tills, per merchant: `event: hello` first ({logId, lastSeq}), `event: reset` when
 * the stream reads on from elsewhere than the till's cursor (the log restored past it, or pruned), then
 * `event: transaction`, `id: <seq>`, `data: <RelayEvent JSON>`, a heartbeat comment at least every
 * 15 s, resumption from a sequence number.
 *
 * Each stream has a cursor: every sequence number of its merchant up to it has been considered
 * (sent, or filtered out by environment). The store's reads are asynchronous (PostgreSQL), so a
 * stream is either pumping (reading pages from the store after its cursor) or caught up. A caught-up
 * stream takes the events this instance commits straight from memory when they follow its cursor;
 * anything else (events committed by another instance, announced by the store as `advanced`) makes
 * it read from its cursor. A pumping stream re-checks the merchant's newest known sequence before it
 * stops, so nothing announced while it read is left behind, and nothing is sent twice because the
 * cursor only moves forward.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Environment } from '../../../shared/domain.js';
import type { LogFn, RelayMetrics } from '../../ops/index.js';
import { eventJson, type RelayStore, type TillIdentity } from '../../store/index.js';
import { resumeFrom } from './cursor-check.js';
import { bump, readWithin, timeCrossInstance, writeEvent, type Stream, type StreamOptions } from './stream-parts.js';

// Rows read per query: few, so a stream that opens far behind holds few events at once.
const PAGE = 32;

/** An event this instance committed, ready to push without reading it back. */
export type PublishedEvent = { seq: number; environment: Environment; json: string; arrivedAt: number };
export type { StreamLimits } from './stream-parts.js';

/** Why a stream was refused. */
export type StreamRefusal = 'relay_full' | 'merchant_full' | 'token_full';

export class EventStreams {
  private readonly streams = new Set<Stream>();
  private readonly byMerchant = new Map<string, Set<Stream>>();
  private readonly perToken = new Map<string, number>();
  /** Newest sequence known committed, per merchant with streams here. */
  private readonly known = new Map<string, number>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly store: Pick<RelayStore, 'rowsAfter' | 'lastSeq' | 'logId' | 'prunedThrough' | 'noteRead'>,
    private readonly metrics: RelayMetrics,
    private readonly options: StreamOptions & { log: LogFn },
  ) {
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.streams.size;
  }

  /** Merchants some till is reading here (the store's catch-up looks at them). */
  merchants(): Iterable<string> {
    return this.byMerchant.keys();
  }

  /** Opens a stream for an authenticated till, resuming after `from.after`; or says why not. */
  open(
    req: IncomingMessage,
    res: ServerResponse,
    till: TillIdentity,
    from: { after: number; receivedAt?: string },
    environment?: Environment,
  ): StreamRefusal | null {
    const { after, receivedAt } = from;
    const { maxClients, maxPerMerchant, maxPerToken } = this.options;
    if (this.streams.size >= maxClients) return 'relay_full';
    if ((this.byMerchant.get(till.merchantId)?.size ?? 0) >= maxPerMerchant) return 'merchant_full';
    if ((this.perToken.get(till.tokenHash) ?? 0) >= maxPerToken) return 'token_full';
    const logId = this.store.logId(till.merchantId);
    const stream: Stream = {
      res,
      till,
      logId,
      environment,
      cursor: after,
      receivedAt,
      live: false,
      busy: true,
      blocked: false,
      blockedSince: 0,
      paced: null,
      closed: false,
    };
    this.add(stream);
    req.socket.setNoDelay(true);
    req.socket.setKeepAlive(true, 30_000);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: 2000\n: connected after=${after}\n\n`);
    const remove = () => this.remove(stream);
    res.on('close', remove);
    res.on('error', remove);
    void this.hello(stream);
    return null;
  }

  /**
   * hello (no id:, so Last-Event-ID is untouched): the log's identity and last sequence, so a till
   * whose cursor belongs to another log, or is ahead of this one, knows to start again from 0.
   */
  private async hello(stream: Stream): Promise<void> {
    const merchantId = stream.till.merchantId;
    try {
      const { lastSeq, reset } = await resumeFrom(this.store, merchantId, stream.logId, stream.cursor, stream.receivedAt);
      if (stream.closed) return;
      this.advance(merchantId, lastSeq);
      stream.res.write(`event: hello\ndata: ${JSON.stringify({ logId: stream.logId, lastSeq })}\n\n`);
      if (reset) {
        // Said before any event, so the till knows the next ids do not follow its cursor.
        this.options.log({
          level: 'info',
          msg: 'sse_cursor_reset',
          merchantId,
          reason: reset.reason,
          cursor: stream.cursor,
          readFrom: reset.readFrom,
        });
        stream.res.write(`event: reset\ndata: ${JSON.stringify(reset)}\n\n`);
        stream.cursor = reset.readFrom;
      } else if (stream.cursor <= lastSeq) this.store.noteRead(stream.till, stream.cursor);
    } catch (err) {
      // The store cannot be read: end the stream; the till reconnects (retry: 2000).
      this.options.log({ level: 'warn', msg: 'sse_open_failed', merchantId, error: (err as Error).message });
      this.end(stream);
      return;
    }
    stream.busy = false;
    this.pump(stream);
  }

  private add(stream: Stream): void {
    const merchantId = stream.till.merchantId;
    this.streams.add(stream);
    let set = this.byMerchant.get(merchantId);
    if (!set) this.byMerchant.set(merchantId, (set = new Set()));
    set.add(stream);
    bump(this.perToken, stream.till.tokenHash, 1);
    this.metrics.sseClients.set(this.streams.size);
  }

  private remove(stream: Stream): void {
    if (stream.closed) return;
    stream.closed = true;
    if (stream.paced) clearTimeout(stream.paced);
    const merchantId = stream.till.merchantId;
    this.streams.delete(stream);
    const set = this.byMerchant.get(merchantId);
    set?.delete(stream);
    if (set?.size === 0) {
      this.byMerchant.delete(merchantId);
      this.known.delete(merchantId);
    }
    bump(this.perToken, stream.till.tokenHash, -1);
    this.metrics.sseClients.set(this.streams.size);
  }

  private end(stream: Stream): void {
    stream.res.end();
    this.remove(stream);
  }

  private advance(merchantId: string, seq: number): number {
    const known = Math.max(this.known.get(merchantId) ?? 0, seq);
    if (this.byMerchant.has(merchantId)) this.known.set(merchantId, known);
    return known;
  }

  /** Reads and writes every event after the stream's cursor, page by page, until it is caught up. */
  private pump(stream: Stream): void {
    if (stream.busy || stream.blocked || stream.paced || stream.closed) return;
    stream.busy = true;
    void this.readOn(stream).finally(() => {
      stream.busy = false;
    });
  }

  private async readOn(stream: Stream): Promise<void> {
    const merchantId = stream.till.merchantId;
    try {
      for (;;) {
        const target = this.known.get(merchantId) ?? 0;
        const read = await readWithin(this.options.budget, this.store, stream, PAGE, this.metrics, () => this.pump(stream));
        if (!read || stream.closed) return;
        const { rows, want } = read;
        for (const row of rows) {
          if (row.seq <= stream.cursor) continue;
          const full = writeEvent(stream, row.seq, eventJson(row), this.store);
          if (stream.live && this.options.perMerchantMetrics) timeCrossInstance(this.metrics, merchantId, row.received_at);
          // The rest of the page waits for the reader: a stalled reader holds STREAM_BUFFER and one event, not pages.
          if (full) return this.waitForDrain(stream);
        }
        // A short page holds everything committed before the read began, `target` included.
        if (rows.length < want) stream.cursor = Math.max(stream.cursor, target);
        if (rows.length < want && stream.cursor >= (this.known.get(merchantId) ?? 0)) {
          stream.live = true;
          return;
        }
      }
    } catch (err) {
      // Left where it is: the next commit or catch-up announcement reads again.
      this.options.log({ level: 'warn', msg: 'sse_read_failed', merchantId, error: (err as Error).message });
    }
  }

  private waitForDrain(stream: Stream): void {
    stream.blocked = true;
    stream.blockedSince = Date.now();
    stream.res.once('drain', () => {
      stream.blocked = false;
      this.pump(stream);
    });
  }

  /** Events this instance has just committed for a merchant, in sequence order. */
  publish(merchantId: string, events: PublishedEvent[]): void {
    const streams = this.byMerchant.get(merchantId);
    const last = events[events.length - 1];
    if (!streams || !last) return;
    const first = events[0] as PublishedEvent;
    this.advance(merchantId, last.seq);
    for (const stream of streams) {
      if (stream.busy || stream.blocked || stream.closed) continue;
      // Events of another instance came in between: read them from the store first.
      if (stream.cursor < first.seq - 1) {
        this.pump(stream);
        continue;
      }
      this.push(stream, merchantId, events);
    }
  }

  /** Writes `events` to a caught-up stream; once STREAM_BUFFER waits for its reader, the rest waits in the store. */
  private push(stream: Stream, merchantId: string, events: PublishedEvent[]): void {
    for (const e of events) {
      if (e.seq <= stream.cursor) continue;
      if (stream.environment && e.environment !== stream.environment) {
        stream.cursor = e.seq;
        continue;
      }
      const full = writeEvent(stream, e.seq, e.json, this.store);
      const seconds = (performance.now() - e.arrivedAt) / 1000;
      this.metrics.pushLatency.observe(seconds);
      if (this.options.perMerchantMetrics) this.metrics.merchantPushLatency.observe(seconds, { merchant: merchantId });
      if (full) return this.waitForDrain(stream);
    }
  }

  /** The merchant's log reaches `lastSeq` (committed elsewhere, or confirmed by a catch-up): streams behind read on. */
  advanced(merchantId: string, lastSeq: number): void {
    const streams = this.byMerchant.get(merchantId);
    if (!streams) return;
    this.advance(merchantId, lastSeq);
    for (const stream of streams) if (stream.cursor < lastSeq) this.pump(stream);
  }

  /** Ends the streams whose token was revoked or whose merchant's log changed identity. */
  dropInvalid(isValid: (till: TillIdentity, logId: string) => boolean): number {
    let dropped = 0;
    for (const stream of [...this.streams]) {
      if (isValid(stream.till, stream.logId)) continue;
      this.end(stream);
      dropped++;
    }
    if (dropped) this.options.log({ level: 'info', msg: 'sse_clients_dropped', count: dropped });
    return dropped;
  }

  /** Streams per merchant (for the per-merchant gauge). */
  countsByMerchant(): Map<string, number> {
    return new Map([...this.byMerchant].map(([m, set]) => [m, set.size]));
  }

  /** Heartbeats; a stream whose reader took nothing for stallMs is ended instead (slot and buffer freed; the till resumes). */
  private beat(): void {
    const now = Date.now();
    const line = `: heartbeat ${new Date(now).toISOString()}\n\n`;
    for (const stream of [...this.streams]) {
      if (!stream.blocked) stream.res.write(line);
      else if (now - stream.blockedSince >= this.options.stallMs) {
        this.metrics.sseStalledDropped.inc();
        this.options.log({ level: 'info', msg: 'sse_stalled_dropped', merchantId: stream.till.merchantId, till: stream.till.label });
        stream.res.destroy();
        this.remove(stream);
      }
    }
  }

  closeAll(): void {
    clearInterval(this.heartbeat);
    for (const stream of [...this.streams]) this.end(stream);
  }
}
