/**
 * The simulator's first schema: merchants and their API keys (the secret sealed, and its hash to find it), the
 * transactions of each key's environment, and the webhook deliveries with each attempt.
 */
import type { Migration } from '../../shared/sqlite.js';

export const migration: Migration = {
  version: 1,
  name: 'merchants, keys, transactions, deliveries and their attempts',
  up: `
  CREATE TABLE merchants (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('PENDING_REVIEW','APPROVED','SUSPENDED','REJECTED')),
    is_demo INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE api_keys (
    public_id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    environment TEXT NOT NULL CHECK (environment IN ('test','live')),
    secret_sha256 TEXT NOT NULL UNIQUE,
    secret_encrypted BLOB NOT NULL,
    secret_last4 TEXT NOT NULL,
    is_demo INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
  ) STRICT;
  CREATE TABLE transactions (
    reference TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    environment TEXT NOT NULL CHECK (environment IN ('test','live')),
    key_public_id TEXT NOT NULL REFERENCES api_keys(public_id),
    merchant_ref TEXT,
    request_sha256 TEXT NOT NULL,
    amount_pesewas INTEGER NOT NULL CHECK (amount_pesewas > 0),
    fee_pesewas INTEGER NOT NULL DEFAULT 0,
    msisdn TEXT NOT NULL,
    network TEXT NOT NULL,
    customer_name TEXT,
    description TEXT NOT NULL,
    metadata TEXT,
    callback_url TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('PENDING','SUCCESS','FAILED')),
    failure_reason TEXT,
    network_reports INTEGER NOT NULL DEFAULT 0,
    outcome TEXT NOT NULL,
    outcome_at INTEGER,
    created_at INTEGER NOT NULL,
    completed_at INTEGER,
    UNIQUE (merchant_id, environment, merchant_ref)
  ) STRICT;
  CREATE INDEX transactions_pending ON transactions(status) WHERE status = 'PENDING';
  CREATE TABLE deliveries (
    id TEXT PRIMARY KEY,
    reference TEXT NOT NULL UNIQUE REFERENCES transactions(reference),
    key_public_id TEXT NOT NULL REFERENCES api_keys(public_id),
    callback_url TEXT NOT NULL,
    body TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('PENDING','DELIVERED','FAILED')),
    scheduled_attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX deliveries_pending ON deliveries(status) WHERE status = 'PENDING';
  CREATE TABLE delivery_attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id TEXT NOT NULL REFERENCES deliveries(id),
    attempt_no INTEGER NOT NULL,
    manual INTEGER NOT NULL DEFAULT 0,
    started_at INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL,
    status_code INTEGER,
    error TEXT,
    ok INTEGER NOT NULL,
    UNIQUE (delivery_id, attempt_no)
  ) STRICT;
  `,
};
