/**
 * Retention on SQLite: one batch of the oldest events received before a cutoff is deleted, each
 * leaving its reference and the hash of its final state in pruned_references (so a repeat is still
 * a repeat: docs/provider-contract.md, "Retention"), and meta.pruned_through moves up to the last
 * one. Pruning runs on the committer's own connection, between two group commits (SQLite has one
 * writer): a commit never waits on a lock for it, at most for one small batch to finish.
 *
 * An event whose stored JSON cannot be hashed is set aside (events_set_aside, migration 10), whole, and
 * named in the batch's result; the batch goes on. One row never stops retention.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { stateHash, type SetAside } from '../index.js';

type OldRow = {
  seq: number;
  environment: string;
  reference: string;
  transaction_json: string;
  latest_timestamp: number;
  deliveries: number;
  received_at: string;
};

/** A batch's stretch of the log, oldest to newest, and the events in it that were set aside. */
export type PrunedStretch = { fromSeq: number; throughSeq: number; count: number; setAside: SetAside[] };

/** The hash a pruned event leaves, or why it cannot have one (its text is kept hashed as stored). */
function hashOf(row: OldRow): { hash: string; unreadable?: string } {
  try {
    return { hash: stateHash(row.transaction_json) };
  } catch (err) {
    return { hash: createHash('sha256').update(row.transaction_json, 'utf8').digest('hex'), unreadable: (err as Error).message };
  }
}

export class SqlitePruner {
  private readonly batch: Database.Transaction<(before: string, limit: number) => PrunedStretch | null>;

  constructor(db: Database.Database) {
    const oldest = db.prepare<[number], OldRow>(
      'SELECT seq, environment, reference, transaction_json, latest_timestamp, deliveries, received_at FROM events ORDER BY seq LIMIT ?',
    );
    const keep = db.prepare(
      `INSERT OR IGNORE INTO pruned_references (environment, reference, seq, transaction_sha256, latest_timestamp, deliveries)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const aside = db.prepare(
      `INSERT OR REPLACE INTO events_set_aside (seq, environment, reference, received_at, transaction_json, reason)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const remove = db.prepare('DELETE FROM events WHERE seq <= ?');
    const mark = db.prepare("UPDATE meta SET value = CAST(MAX(CAST(value AS INTEGER), ?) AS TEXT) WHERE key = 'pruned_through'");
    this.batch = db.transaction((before: string, limit: number) => {
      // The oldest events in sequence order, up to the first one still kept: the pruned part of the
      // log stays one unbroken stretch from its start, so "pruned through N" says it all.
      let from = 0;
      let through = 0;
      let count = 0;
      const setAside: SetAside[] = [];
      for (const row of oldest.all(limit)) {
        if (!(row.received_at < before)) break;
        const { hash, unreadable } = hashOf(row);
        if (unreadable !== undefined) {
          aside.run(row.seq, row.environment, row.reference, row.received_at, row.transaction_json, unreadable);
          setAside.push({ seq: row.seq, reason: unreadable });
        }
        keep.run(row.environment, row.reference, row.seq, hash, row.latest_timestamp, row.deliveries);
        if (count === 0) from = row.seq;
        through = row.seq;
        count++;
      }
      if (count === 0) return null;
      remove.run(through);
      mark.run(through);
      return { fromSeq: from, throughSeq: through, count, setAside };
    });
  }

  /** Prunes at most `limit` events received before `before` (ISO time); the stretch pruned, or null when none was. */
  prune(before: string, limit: number): PrunedStretch | null {
    return this.batch.immediate(before, limit);
  }
}
