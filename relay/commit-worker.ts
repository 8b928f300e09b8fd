/**
 * The writer thread. It owns the only write connection to the event log and commits each batch
 * of deliveries in one transaction (BEGIN IMMEDIATE, one fsync with synchronous=FULL); if that
 * fails, it retries them one by one so one bad delivery cannot sink the rest. The main thread keeps reading and verifying requests while a
 * commit's fsync is under way, and sends the next batch when this one is answered.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openRelayDatabase } from './db.js';
import { EventLog, type ApplyOutcome, type Delivery } from './event-log.js';

export type WorkerRequest = { type: 'batch'; id: number; deliveries: Delivery[] } | { type: 'close' };
export type WorkerItemResult = { outcome: ApplyOutcome } | { error: string };
export type WorkerResponse =
  | { type: 'ready' }
  | { type: 'result'; id: number; results: WorkerItemResult[] }
  | { type: 'failed'; id: number; error: string }
  | { type: 'closed' };

export type WorkerInit = { dataDir: string; busyTimeoutMs: number };

const port = parentPort;
if (!port) throw new Error('commit-worker must run in a worker thread');
const init = workerData as WorkerInit;
const db = openRelayDatabase(init.dataDir, { busyTimeoutMs: init.busyTimeoutMs });
const log = new EventLog(db);

/** The whole batch in one transaction: one fsync. */
const commitAll = db.transaction((deliveries: Delivery[]) => deliveries.map((d) => ({ outcome: log.apply(d) })));
const commitOne = db.transaction((d: Delivery) => log.apply(d));

function commit(deliveries: Delivery[]): WorkerItemResult[] {
  try {
    return commitAll.immediate(deliveries);
  } catch (err) {
    if (deliveries.length === 1) throw err;
    // Something in the batch failed and the whole transaction rolled back. Retry one by one so
    // a single bad delivery cannot sink the others; if the disk itself fails, each one fails.
    return deliveries.map((d) => {
      try {
        return { outcome: commitOne.immediate(d) };
      } catch (e) {
        return { error: (e as Error).message };
      }
    });
  }
}

port.on('message', (msg: WorkerRequest) => {
  if (msg.type === 'close') {
    db.close();
    port.postMessage({ type: 'closed' } satisfies WorkerResponse);
    port.close();
    return;
  }
  try {
    port.postMessage({ type: 'result', id: msg.id, results: commit(msg.deliveries) } satisfies WorkerResponse);
  } catch (err) {
    // The commit itself failed: nothing of this batch is on disk.
    port.postMessage({ type: 'failed', id: msg.id, error: (err as Error).message } satisfies WorkerResponse);
  }
});
port.postMessage({ type: 'ready' } satisfies WorkerResponse);
