/** One till's stream as EventStreams keeps it, and the small helpers it writes and counts with. */
import type { ServerResponse } from 'node:http';
import type { Environment } from '../../../shared/domain.js';
import type { TillIdentity } from '../../store/index.js';

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
  closed: boolean;
};

export function frame(seq: number, json: string): string {
  return `event: transaction\nid: ${seq}\ndata: ${json}\n\n`;
}

export function bump(map: Map<string, number>, key: string, by: number): void {
  const n = (map.get(key) ?? 0) + by;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}
