/** One till's stream as EventStreams keeps it, and the small helpers it writes and counts with. */
import type { ServerResponse } from 'node:http';
import type { Environment } from '../../../shared/domain.js';
import type { RelayMetrics } from '../../ops/index.js';
import type { EventRow, RelayStore, TillIdentity } from '../../store/index.js';
import type { ReadBudget } from './read-budget.js';

export type StreamLimits = {
  maxClients: number;
  maxPerMerchant: number;
  maxPerToken: number;
  /** A stream whose reader has taken nothing for this long is ended (the till reconnects from its cursor). */
  stallMs: number;
};

export type StreamOptions = StreamLimits & {
  heartbeatMs: number;
  /** A multi-merchant relay (PostgreSQL), where other instances commit too. */
  perMerchantMetrics?: boolean;
  /** Each merchant's events read back a second, shared with its tills' pages: a stream reading back waits for it. */
  budget?: Pick<ReadBudget, 'waitSeconds' | 'reserve' | 'settle'>;
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
  /** Waiting for its merchant's read budget to refill before it reads on from the store. */
  paced: NodeJS.Timeout | null;
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

/**
 * The stream's next rows after its cursor, at most `page`, taken from its merchant's budget; or null once it
 * waits for the budget to refill a page's worth (it then calls `readOn` by itself; live events meanwhile wait
 * in the store). `want`: what was asked, so a shorter answer means caught up.
 */
export async function readWithin(
  budget: StreamOptions['budget'],
  store: Pick<RelayStore, 'rowsAfter'>,
  stream: Stream,
  page: number,
  metrics: RelayMetrics,
  readOn: () => void,
): Promise<{ rows: EventRow[]; want: number } | null> {
  const merchantId = stream.till.merchantId;
  if (!budget) return { rows: await store.rowsAfter(merchantId, stream.cursor, page, stream.environment), want: page };
  const wait = budget.waitSeconds(merchantId, page);
  if (wait > 0) {
    metrics.streamsPaced.inc();
    stream.paced = setTimeout(
      () => {
        stream.paced = null;
        readOn();
      },
      Math.ceil(wait * 1000),
    );
    return null;
  }
  const want = budget.reserve(merchantId, page);
  let rows: EventRow[] = [];
  try {
    rows = await store.rowsAfter(merchantId, stream.cursor, want, stream.environment);
  } finally {
    budget.settle(merchantId, want, rows.length);
  }
  return { rows, want };
}
