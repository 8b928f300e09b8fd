/** The tills' read marks in relay.sqlite (store/till-reads.ts): written on the committer's connection, read for the operator and tests. */
import type Database from 'better-sqlite3';
import type { TillRead } from '../index.js';

/** Writes each till's mark, the higher one kept, in one transaction. */
export function writeTillReads(db: Database.Database, reads: readonly TillRead[]): void {
  const upsert = db.prepare(
    `INSERT INTO till_reads (token_hash, label, read_seq, read_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (token_hash) DO UPDATE SET label = excluded.label,
       read_at = CASE WHEN excluded.read_seq > read_seq THEN excluded.read_at ELSE read_at END,
       read_seq = max(read_seq, excluded.read_seq)`,
  );
  db.transaction(() => {
    for (const r of reads) upsert.run(r.tokenHash, r.label, r.readSeq, r.readAt);
  }).immediate();
}

/** Every till's mark, furthest first. */
export function readTillReads(db: Database.Database, merchantId: string): TillRead[] {
  const rows = db.prepare('SELECT token_hash, label, read_seq, read_at FROM till_reads ORDER BY read_seq DESC, label').all() as Array<{
    token_hash: string;
    label: string;
    read_seq: number;
    read_at: string;
  }>;
  return rows.map((r) => ({ merchantId, tokenHash: r.token_hash, label: r.label, readSeq: r.read_seq, readAt: r.read_at }));
}
