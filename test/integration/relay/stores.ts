/**
 * The relay's conformance suites run against both stores: `describeEachStore(name, suite)` runs
 * `suite` once on SQLite (keys and tokens in the config) and once on PostgreSQL (a throwaway
 * cluster for the file, a database per relay, keys and tokens added as the CLI adds them).
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { describe } from 'vitest';
import type { RelayConfigInput } from '../../../relay/ops/index.js';
import { openPgPool, addKey, addMerchant, createToken } from '../../../relay/store/pg/index.js';
import { startRelay, type RunningRelay } from '../../../relay/http/index.js';
import { describePg, usePgCluster, type PgCluster } from '../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../support/temp-dir.js';
import { LIVE_KEY, makeConfig, TEST_KEY } from './helpers.js';

export type StartedRelay = {
  relay: RunningRelay;
  token: string;
  /** Runs one statement on the relay's database from outside (a second connection), as an operator or a bug might. */
  sql(statement: string, params?: unknown[]): Promise<void>;
  cleanup(): Promise<void>;
};

type StartOptions = { settings?: Partial<RelayConfigInput>; log?: (l: Record<string, unknown>) => void; now?: () => number };

export type StoreFixture = {
  name: 'SQLite' | 'PostgreSQL';
  /** A relay on a fresh store holding TEST_KEY and LIVE_KEY, and one till token. */
  start(options?: StartOptions): Promise<StartedRelay>;
};

export const TEST_MERCHANT = 'MCH_conformance';

function sqliteFixture(): StoreFixture {
  return {
    name: 'SQLite',
    async start({ settings = {}, log = () => {}, now }: StartOptions = {}) {
      const tmp = tempDir('relay');
      const made = makeConfig(settings);
      const relay = await startRelay({ dataDir: tmp, config: made.config, log, now });
      return {
        relay,
        token: made.token,
        async sql(statement, params = []) {
          const db = new Database(join(tmp, 'relay.sqlite'));
          try {
            db.prepare(statement).run(...params);
          } finally {
            db.close();
          }
        },
        async cleanup() {
          await relay.close();
          removeDir(tmp);
        },
      };
    },
  };
}

/** A database holding one merchant with TEST_KEY and LIVE_KEY; returns its URL, master key and a till token. */
export async function seedPgTenant(cluster: PgCluster, merchant = TEST_MERCHANT) {
  const databaseUrl = await cluster.createDatabase();
  const masterKey = randomBytes(32);
  const pool = await openPgPool(databaseUrl, 1);
  try {
    await addMerchant(pool, merchant);
    for (const key of [TEST_KEY, LIVE_KEY]) await addKey(pool, masterKey, merchant, key.publicId, key.secret);
    const token = await createToken(pool, merchant, 'front-counter');
    return { databaseUrl, masterKey, token };
  } finally {
    await pool.end();
  }
}

function pgFixture(cluster: () => PgCluster): StoreFixture {
  return {
    name: 'PostgreSQL',
    async start({ settings = {}, log = () => {}, now }: StartOptions = {}) {
      const { databaseUrl, masterKey, token } = await seedPgTenant(cluster());
      const relay = await startRelay({ databaseUrl, masterKey, config: settings, log, now });
      const sql = async (statement: string, params: unknown[] = []) => {
        const client = new pg.Client(databaseUrl);
        await client.connect();
        try {
          await client.query(statement, params);
        } finally {
          await client.end();
        }
      };
      return { relay, token, sql, cleanup: () => relay.close() };
    },
  };
}

export function describeEachStore(name: string, suite: (store: StoreFixture) => void): void {
  describe(`${name} [SQLite]`, () => suite(sqliteFixture()));
  describePg(`${name} [PostgreSQL]`, () => {
    const cluster = usePgCluster();
    suite(pgFixture(cluster));
  });
}
