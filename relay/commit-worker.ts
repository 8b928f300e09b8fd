/**
 * The writer thread. It owns the only write connection to the event log. The main thread posts
 * the deliveries of each event-loop turn as soon as they are verified; whenever this thread is
 * free it takes EVERY batch waiting on its port and commits them together in one transaction
 * (BEGIN IMMEDIATE, one fsync with synchronous=FULL). While that fsync runs, the main thread keeps
 * serving and the next group builds up in the port. If a group's transaction fails, the
 * deliveries are retried one by one, so one bad delivery cannot sink the rest.
 */
import { receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { openRelayDatabase } from './db.js';
import { EventLog, type ApplyOutcome, type Delivery } from './event-log.js';

/** Deliveries and results travel as one JSON string per batch: cheaper to copy between threads than objects. */
export type WorkerRequest = { type: 'batch'; id: number; deliveries: string } | { type: 'close' };
export type WorkerItemResult = { outcome: ApplyOutcome } | { error: string };
export type WorkerResponse =
  | { type: 'ready' }
  | { type: 'result'; id: number; /** WorkerItemResult[] as JSON */ results: string; /** deliveries in the commit, on its first batch only; else 0 */ groupSize: number }
  | { type: 'closed' };

export type WorkerInit = { dataDir: string; busyTimeoutMs: number; port: MessagePort };

const init = workerData as WorkerInit;
const port = init.port;
const db = openRelayDatabase(init.dataDir, { busyTimeoutMs: init.busyTimeoutMs });
const log = new EventLog(db);

const commitAll = db.transaction((deliveries: Delivery[]) => deliveries.map((d): WorkerItemResult => ({ outcome: log.apply(d) })));
const commitOne = db.transaction((d: Delivery) => log.apply(d));

const ENVIRONMENTAL = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|READONLY|CANTOPEN|CORRUPT|NOTADB|PROTOCOL)/;

function commit(deliveries: Delivery[]): WorkerItemResult[] {
  try {
    return commitAll.immediate(deliveries);
  } catch (err) {
    const message = (err as Error).message;
    // Locked, read-only, full or failing disk: nothing in the group can commit now (503 to all).
    if (deliveries.length === 1 || ENVIRONMENTAL.test(String((err as { code?: unknown }).code))) {
      return deliveries.map(() => ({ error: message }));
    }
    // Otherwise the group's transaction rolled back as a whole: retry one by one.
    return deliveries.map((d) => {
      try {
        return { outcome: commitOne.immediate(d) };
      } catch (e) {
        return { error: (e as Error).message };
      }
    });
  }
}

let closing = false;

function handle(first: WorkerRequest): void {
  const batches: Array<{ id: number; deliveries: Delivery[] }> = [];
  const take = (msg: WorkerRequest) => {
    if (msg.type === 'close') closing = true;
    else batches.push({ id: msg.id, deliveries: JSON.parse(msg.deliveries) as Delivery[] });
  };
  take(first);
  // Group commit: everything already waiting joins this transaction.
  for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port)) take(next.message as WorkerRequest);

  if (batches.length > 0) {
    const all = batches.flatMap((b) => b.deliveries);
    const results = commit(all);
    let offset = 0;
    batches.forEach((b, i) => {
      const slice = results.slice(offset, offset + b.deliveries.length);
      offset += b.deliveries.length;
      // The commit's size is reported once, with its first batch.
      const groupSize = i === 0 ? all.length : 0;
      port.postMessage({ type: 'result', id: b.id, results: JSON.stringify(slice), groupSize } satisfies WorkerResponse);
    });
  }
  if (closing) {
    db.close();
    port.postMessage({ type: 'closed' } satisfies WorkerResponse);
    port.close();
  }
}

port.on('message', handle);
port.postMessage({ type: 'ready' } satisfies WorkerResponse);
