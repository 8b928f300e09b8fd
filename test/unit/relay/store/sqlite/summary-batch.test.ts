/**
 * SummaryBatch alone (relay/store/sqlite/summary-batch.ts): what it hands to the upsert. One row per key,
 * sums and last non-empty names; a row that would take a sum past Number.MAX_SAFE_INTEGER goes on its own,
 * with its own exact values, for SQLite to add. (owner-summary.test.ts checks the rows in the database.)
 */
import { describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { SummaryBatch } from '../../../../../relay/store/sqlite/summary-batch.js';
import type { OwnerSummaryRow } from '../../../../../relay/store/index.js';

const row = (over: Partial<OwnerSummaryRow> = {}): OwnerSummaryRow => ({
  hour: 100,
  tillId: 'T1',
  tillName: 'Front',
  cashierId: 'C1',
  cashierName: 'Ama',
  network: 'MTN',
  succeeded: 1,
  failed: 0,
  gross: 1000,
  fees: 20,
  net: 980,
  ...over,
});

/** The rows the batch writes, as the upsert's 12 values. */
function written(batch: SummaryBatch): unknown[][] {
  const runs: unknown[][] = [];
  batch.writeTo({ run: (...values: unknown[]) => runs.push(values) } as unknown as Database.Statement);
  return runs;
}

const HUGE = Number.MAX_SAFE_INTEGER - 10;

describe('SummaryBatch', () => {
  it('writes one row per key with the sums, the last non-empty names winning', () => {
    const batch = new SummaryBatch();
    batch.add('live', row());
    batch.add('live', row({ tillName: '', cashierName: 'Akua', succeeded: 0, failed: 1, gross: 0, fees: 0, net: 0 }));
    batch.add('live', row({ tillName: 'Counter', cashierName: '', gross: 500, fees: 10, net: 490 }));
    batch.add('test', row());
    batch.add('live', row({ hour: 101 }));
    batch.add('live', row({ tillId: 'T2' }));
    batch.add('live', row({ cashierId: 'C2' }));
    batch.add('live', row({ network: 'AT' }));
    expect(written(batch)).toEqual([
      ['live', 100, 'T1', 'Counter', 'C1', 'Akua', 'MTN', 2, 1, 1500, 30, 1470],
      ['test', 100, 'T1', 'Front', 'C1', 'Ama', 'MTN', 1, 0, 1000, 20, 980],
      ['live', 101, 'T1', 'Front', 'C1', 'Ama', 'MTN', 1, 0, 1000, 20, 980],
      ['live', 100, 'T2', 'Front', 'C1', 'Ama', 'MTN', 1, 0, 1000, 20, 980],
      ['live', 100, 'T1', 'Front', 'C2', 'Ama', 'MTN', 1, 0, 1000, 20, 980],
      ['live', 100, 'T1', 'Front', 'C1', 'Ama', 'AT', 1, 0, 1000, 20, 980],
    ]);
  });

  it('keys are exact: values that would join in a naive key stay apart', () => {
    const batch = new SummaryBatch();
    batch.add('live', row({ tillId: 'a|b', cashierId: 'c' }));
    batch.add('live', row({ tillId: 'a', cashierId: 'b|c' }));
    expect(written(batch)).toHaveLength(2);
  });

  for (const field of ['gross', 'fees', 'net'] as const) {
    it(`a row that would take ${field} past Number.MAX_SAFE_INTEGER is written on its own, exact`, () => {
      const batch = new SummaryBatch();
      batch.add('live', row({ [field]: HUGE }));
      batch.add('live', row({ [field]: 20 }));
      batch.add('live', row({ [field]: 5 }));
      const rows = written(batch);
      const at = { gross: 9, fees: 10, net: 11 }[field];
      expect(rows.map((r) => r[at])).toEqual([HUGE + 5, 20]);
      expect(rows.map((r) => r[7])).toEqual([2, 1]);
    });
  }
});
