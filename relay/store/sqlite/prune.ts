/**
 * Retention on SQLite: one batch of the oldest events received before a cutoff is deleted, each
 * leaving its reference and the hash of its final state in pruned_references (so a repeat is still
 * a repeat: docs/provider-contract.md, "Retention"), and meta.pruned_through moves up to the last
 * one. Pruning runs on the committer's own connection, between two group commits (SQLite has one
 * writer): a commit never waits on a lock for it, at most for one small batch to finish.
 */
import type Database from 'better-sqlite3';
import { stateHash } from '../index.js';

type OldRow = {
  seq: number;
  environment: string;
  reference: string;
  transaction_json: string;
  latest_timestamp: number;
  deliveries: number;
  received_at: string;
};

export class SqlitePruner {
  private readonly batch: Database.Transaction<(before: string, limit: number) => number>;

  constructor(db: Database.Database) {
    const oldest = db.prepare<[number], OldRow>(
      'SELECT seq, environment, reference, transaction_json, latest_timestamp, deliveries, received_at FROM events ORDER BY seq LIMIT ?',
    );
    const keep = db.prepare(
      `INSERT OR IGNORE INTO pruned_references (environment, reference, seq, transaction_sha256, latest_timestamp, deliveries)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const remove = db.prepare('DELETE FROM events WHERE seq <= ?');
    const mark = db.prepare("UPDATE meta SET value = CAST(MAX(CAST(value AS INTEGER), ?) AS TEXT) WHERE key = 'pruned_through'");
    this.batch = db.transaction((before: string, limit: number) => {
      // The oldest events in sequence order, up to the first one still kept: the pruned part of the
      // log stays one unbroken stretch from its start, so "pruned through N" says it all.
      let through = 0;
      let count = 0;
      for (const row of oldest.all(limit)) {
        if (!(row.received_at < before)) break;
        keep.run(row.environment, row.reference, row.seq, stateHash(row.transaction_json), row.latest_timestamp, row.deliveries);
        through = row.seq;
        count++;
      }
      if (count === 0) return 0;
      remove.run(through);
      mark.run(through);
      return count;
    });
  }

  /** Prunes at most `limit` events received before `before` (ISO time); returns how many. */
  prune(before: string, limit: number): number {
    return this.batch.immediate(before, limit);
  }
}
