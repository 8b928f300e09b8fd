/**
 * Retention on PostgreSQL: one batch per merchant whose oldest event was received before the cutoff (one
 * index probe per merchant finds them); relay_prune_batch (migration 10) skips a merchant another instance
 * is pruning and sets aside an event it cannot hash. One merchant's failure is its own: the others are
 * pruned, and its range says why it was not.
 */
import type pg from 'pg';
import type { PrunedRange } from '../index.js';

type Query = <R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]) => Promise<pg.QueryResult<R>>;

/** relay_prune_batch's answer (bigints arrive as text). */
type PruneRow = { o_count: number; o_from: string | null; o_through: string | null; o_set_aside: string[]; o_reasons: string[] };

export async function pruneDue(query: Query, before: string, limit: number): Promise<PrunedRange[]> {
  const { rows } = await query<{ id: string }>(
    'relay_prune_due',
    `SELECT m.id FROM merchants m
       CROSS JOIN LATERAL (SELECT e.received_at FROM events e WHERE e.merchant_id = m.id ORDER BY e.seq LIMIT 1) o
      WHERE o.received_at < $1`,
    [before],
  );
  const ranges: PrunedRange[] = [];
  for (const { id } of rows) {
    try {
      const done = await query<PruneRow>(
        'relay_prune_batch',
        'SELECT o_count, o_from, o_through, o_set_aside, o_reasons FROM relay_prune_batch($1, $2, $3)',
        [id, before, limit],
      );
      const row = done.rows[0];
      if (!row || row.o_count === 0) continue;
      const setAside = row.o_set_aside.map((seq, i) => ({ seq: Number(seq), reason: row.o_reasons[i] ?? '' }));
      ranges.push({ merchantId: id, fromSeq: Number(row.o_from), throughSeq: Number(row.o_through), count: row.o_count, setAside });
    } catch (err) {
      ranges.push({ merchantId: id, fromSeq: 0, throughSeq: 0, count: 0, setAside: [], error: (err as Error).message });
    }
  }
  return ranges;
}
