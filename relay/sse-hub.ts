/**
 * Server-Sent Events to tills: `event: transaction`, `id: <seq>`, `data: <RelayEvent JSON>`,
 * a heartbeat comment at least every 15 s, resumption from a sequence number.
 *
 * Each client has a cursor: every sequence number up to it has been considered for that client
 * (sent, or filtered out by environment). A client that is caught up gets new events straight
 * from memory when they commit; one that is behind (just connected, or slowed by
 * back-pressure) is pumped from the database in pages. Both run on the one JS thread right
 * after the commit, so no event can slip between a catch-up read and the live stream, and
 * none is sent twice.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Environment } from '../shared/domain.js';
import type { LogFn } from './logger.js';
import type { RelayMetrics } from './metrics.js';
import { eventJson, type EventReader } from './store.js';

const PAGE = 256;

export type PublishedEvent = { seq: number; environment: Environment; json: string; arrivedAt: number };

type Client = {
  id: number;
  res: ServerResponse;
  environment: Environment | undefined;
  cursor: number;
  tokenHash: string;
  /** Waiting for 'drain'; it will pump from the database when writable again. */
  blocked: boolean;
  closed: boolean;
};

function frame(seq: number, json: string): string {
  return `event: transaction\nid: ${seq}\ndata: ${json}\n\n`;
}

export class SseHub {
  private readonly clients = new Set<Client>();
  private nextId = 1;
  private lastCommitted: number;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly eventLog: EventReader,
    private readonly metrics: RelayMetrics,
    private readonly options: { heartbeatMs: number; maxClients: number; log: LogFn },
  ) {
    this.lastCommitted = eventLog.lastSeq();
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.clients.size;
  }

  /** Opens a stream for an authenticated till, resuming after `after`. Returns false when full. */
  open(req: IncomingMessage, res: ServerResponse, after: number, environment: Environment | undefined, tokenHash: string): boolean {
    if (this.clients.size >= this.options.maxClients) return false;
    const client: Client = { id: this.nextId++, res, environment, cursor: after, tokenHash, blocked: false, closed: false };
    this.clients.add(client);
    this.metrics.sseClients.set(this.clients.size);
    req.socket.setNoDelay(true);
    req.socket.setKeepAlive(true, 30_000);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // hello first (no id:, so Last-Event-ID is untouched): the log's identity and last sequence, so a
    // till whose cursor belongs to another log, or is ahead of this one, knows to start again from 0.
    const hello = JSON.stringify({ logId: this.eventLog.logId, lastSeq: this.eventLog.lastSeq() });
    res.write(`retry: 2000\n: connected after=${after}\n\nevent: hello\ndata: ${hello}\n\n`);
    const remove = () => this.remove(client);
    res.on('close', remove);
    res.on('error', remove);
    this.pump(client);
    return true;
  }

  private remove(client: Client): void {
    if (client.closed) return;
    client.closed = true;
    this.clients.delete(client);
    this.metrics.sseClients.set(this.clients.size);
  }

  /** Writes every event after the client's cursor from the database, page by page. */
  private pump(client: Client): void {
    while (!client.closed) {
      const rows = this.eventLog.rowsAfter(client.cursor, PAGE, client.environment);
      let writable = true;
      for (const row of rows) {
        writable = client.res.write(frame(row.seq, eventJson(row)));
        client.cursor = row.seq;
      }
      if (rows.length < PAGE) client.cursor = Math.max(client.cursor, this.lastCommitted);
      if (!writable) {
        this.waitForDrain(client);
        return;
      }
      if (rows.length < PAGE) return;
    }
  }

  private waitForDrain(client: Client): void {
    client.blocked = true;
    client.res.once('drain', () => {
      client.blocked = false;
      this.pump(client);
    });
  }

  /** Called right after a commit with the newly stored events, in sequence order. */
  publish(events: PublishedEvent[]): void {
    if (events.length === 0) return;
    const previous = this.lastCommitted;
    const newest = (events[events.length - 1] as PublishedEvent).seq;
    this.lastCommitted = Math.max(this.lastCommitted, newest);
    for (const client of this.clients) {
      if (client.blocked || client.closed) continue;
      if (client.cursor < previous) {
        this.pump(client);
        continue;
      }
      let writable = true;
      for (const e of events) {
        if (e.seq <= client.cursor) continue;
        if (client.environment && e.environment !== client.environment) continue;
        writable = client.res.write(frame(e.seq, e.json));
        this.metrics.pushLatency.observe((performance.now() - e.arrivedAt) / 1000);
      }
      client.cursor = Math.max(client.cursor, this.lastCommitted);
      if (!writable) this.waitForDrain(client);
    }
  }

  private beat(): void {
    for (const client of this.clients) {
      if (!client.blocked && !client.closed) client.res.write(`: heartbeat ${new Date().toISOString()}\n\n`);
    }
  }

  /** Ends the streams of tills whose token is no longer configured. */
  dropRevoked(validHashes: Set<string>): number {
    let dropped = 0;
    for (const client of [...this.clients]) {
      if (!validHashes.has(client.tokenHash)) {
        client.res.end();
        this.remove(client);
        dropped++;
      }
    }
    if (dropped) this.options.log({ level: 'info', msg: 'sse_clients_dropped_revoked', count: dropped });
    return dropped;
  }

  closeAll(): void {
    clearInterval(this.heartbeat);
    for (const client of [...this.clients]) {
      client.res.end();
      this.remove(client);
    }
  }
}
