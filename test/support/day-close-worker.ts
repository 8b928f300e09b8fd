/**
 * A second till window closing the day (a worker thread with its own connection to the same till.db):
 * waits at the gate, then closes `closes` times, each time on the latest Z it reads, as a screen would.
 *
 * With `barrier` (two Int32 slots: [0] the first close is inside its transaction, [1] the second close
 * is inside its own), two workers meet on purpose: the 'first' holds its transaction open (its clock,
 * read while computing the report, blocks) until the 'second' is inside a transaction too or `holdMs`
 * passes; the 'second' starts its close only once the first is inside. `met` says whether the second
 * got inside while the first was held open: it never may.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../electron/core/storage/database.js';
import { DayClose } from '../../electron/core/day/day-close.js';

type Barrier = { barrier: SharedArrayBuffer; role: 'first' | 'second'; holdMs: number };
const { file, gate, closes, barrier } = workerData as {
  file: string;
  gate: SharedArrayBuffer;
  closes: number;
  barrier?: Barrier;
};
const slots = barrier ? new Int32Array(barrier.barrier) : null;
let held = false;
let met = false;

/** The clock DayClose reads inside its transaction: where the two closes meet. */
function clock(): number {
  if (slots && barrier?.role === 'first' && !held) {
    held = true;
    Atomics.store(slots, 0, 1);
    Atomics.notify(slots, 0);
    met = Atomics.wait(slots, 1, 0, barrier.holdMs) !== 'timed-out';
  } else if (slots && barrier?.role === 'second') {
    Atomics.store(slots, 1, 1);
    Atomics.notify(slots, 1);
  }
  return Date.now();
}

const db = openDatabase(file);
// The second close waits in BEGIN IMMEDIATE while the first holds its transaction: more than the hold, on any load.
if (barrier) db.pragma('busy_timeout = 60000');
const day = new DayClose(db, clock, () => ({ id: 'TFRONT1', name: 'Front' }));
Atomics.wait(new Int32Array(gate), 0, 0);
if (slots && barrier?.role === 'second') Atomics.wait(slots, 0, 0); // until the first is inside
const numbers: number[] = [];
let refused = 0;
for (let i = 0; i < closes; i++) {
  try {
    numbers.push(day.close('test', 'Africa/Accra', day.last('test')?.number ?? 0, null).report.number as number);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ALREADY_CLOSED') throw error;
    refused += 1;
  }
}
db.close();
parentPort?.postMessage({ numbers, refused, met });
