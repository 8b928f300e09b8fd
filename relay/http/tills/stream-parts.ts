/** One till's stream as EventStreams keeps it, and the small helpers it writes and counts with. */
import type { ServerResponse } from 'node:http';
import type { Environment } from '../../../shared/domain.js';
import type { RelayMetrics } from '../../ops/index.js';
import type { RelayStore, TillIdentity } from '../../store/index.js';

export type StreamLimits = {
  maxClients: number;
  maxPerMerchant: number;
  maxPerToken: number;
  /** A stream whose reader has taken nothing for this long is ended (the till reconnects from its cursor). */
  stallMs: number;
};

export type Stream = {
  res: ServerResponse;
  /** Caught up once: what it reads from the store from then on is live (committed elsewhere), and timed. */
  live: boolean;
  till: TillIdentity;
  logId: string;
  environment: Environment | undefined;
  cursor: number;
  /** The receivedAt of the event the till read at its cursor, when it said. */
  receivedAt: string | undefined;
  /** Reading from the store (or opening): live events wait for that read. */
  busy: boolean;
  /** Waiting for 'drain'; it reads from the store when writable again. */
  blocked: boolean;
  /** When it began waiting for 'drain' (Date.now()). */
  blockedSince: number;
  closed: boolean;
};

/** Bytes a stream may have waiting for its reader; past them it waits for 'drain', and the rest stays in the store. */
const STREAM_BUFFER = 256 * 1024;

/** Writes one event, moves the cursor past it and notes it read; true when STREAM_BUFFER now waits for the reader. */
export function writeEvent(stream: Stream, seq: number, json: string, reads: Pick<RelayStore, 'noteRead'>): boolean {
  stream.res.write(frame(seq, json));
  stream.cursor = seq;
  // Sent is read, as far as the relay can tell (store/till-reads.ts).
  reads.noteRead(stream.till, seq);
  return stream.res.writableLength >= STREAM_BUFFER;
}

/**
 * A live event another instance committed, pushed here after PostgreSQL's NOTIFY (or the catch-up):
 * timed on this instance, the one that pushes it, from its arrival on the other (its receivedAt;
 * instances' clocks kept by NTP), so the cross-instance target is measured where it happens.
 */
export function timeCrossInstance(metrics: RelayMetrics, merchantId: string, receivedAt: string): void {
  const seconds = Math.max(0, (Date.now() - Date.parse(receivedAt)) / 1000);
  if (!Number.isFinite(seconds)) return;
  metrics.crossInstancePushLatency.observe(seconds);
  metrics.merchantPushLatency.observe(seconds, { merchant: merchantId });
}

export function frame(seq: number, json: string): string {
  return `event: transaction\nid: ${seq}\ndata: ${json}\n\n`;
}

export function bump(map: Map<string, number>, key: string, by: number): void {
  const n = (map.get(key) ?? 0) + by;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}
