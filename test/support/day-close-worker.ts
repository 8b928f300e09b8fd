/**
 * A second till window closing the day (a worker thread with its own connection to the same till.db):
 * waits at the gate, then closes `closes` times, each time on the latest Z it reads, as a screen would.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../electron/core/storage/database.js';
import { DayClose } from '../../electron/core/day/day-close.js';

const { file, gate, closes } = workerData as { file: string; gate: SharedArrayBuffer; closes: number };
const db = openDatabase(file);
const day = new DayClose(db, Date.now);
Atomics.wait(new Int32Array(gate), 0, 0);
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
parentPort?.postMessage({ numbers, refused });
