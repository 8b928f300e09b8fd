/**
 * Retention (relay --retention-days): pruned events leave their reference behind, with the hash of
 * their final state, so a repeat is still known for ever (docs/provider-contract.md, "Retention").
 * meta.pruned_through: every sequence up to it is gone (tills behind it are told so).
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 4,
  name: 'retention: pruned references and the pruned-through mark',
  up: `
  CREATE TABLE pruned_references (
    environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
    reference TEXT NOT NULL,
    seq INTEGER NOT NULL,
    transaction_sha256 TEXT NOT NULL,
    latest_timestamp INTEGER NOT NULL,
    deliveries INTEGER NOT NULL,
    PRIMARY KEY (environment, reference)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO meta (key, value) VALUES ('pruned_through', '0');
  `,
};
