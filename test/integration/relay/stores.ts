/**
 * The relay's conformance suites run against both stores: `describeEachStore(name, suite)` runs
 * `suite` once on SQLite (keys and tokens in the config) and once on PostgreSQL (a throwaway
 * cluster for the file, a database per relay, keys and tokens added as the CLI adds them).
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe } from 'vitest';
import { addTillToken, createRelayToken, loadRelayConfig, type RelayConfigInput } from '../../../relay/ops/index.js';
import { openPgPool, addKey, addMerchant, createToken } from '../../../relay/store/pg/index.js';
import { startRelay, type RunningRelay } from '../../../relay/http/index.js';
import { describePg, usePgCluster, type PgCluster } from '../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../support/temp-dir.js';
import { LIVE_KEY, runRelayCli, TEST_KEY } from './helpers.js';

export type StartedRelay = {
  relay: RunningRelay;
  token: string;
  /** Runs one statement on the relay's database from outside (a second connection), as an operator or a bug might. */
  sql(statement: string, params?: unknown[]): Promise<void>;
  /** Every byte the store holds, as text: SQLite's file and its WAL; every row of every PostgreSQL table (bytea as latin1). */
  stored(): Promise<string>;
  /** Reads rows of the relay's database from outside (after `relay.close()` too, until cleanup). */
  query(statement: string): Promise<Array<Record<string, unknown>>>;
  /** Till tokens as the operator manages them: another made (answered once), and one revoked through `momo-relay token revoke`. */
  tills: { create(label: string): Promise<string>; revoke(label: string): Promise<void> };
  cleanup(): Promise<void>;
};

/** Runs the built CLI; a failure is the test's failure, with what the CLI said. */
async function cliOk(args: string[], env: Record<string, string> = {}): Promise<void> {
  const run = await runRelayCli(args, env);
  if (run.code !== 0) throw new Error(`momo-relay ${args.join(' ')} failed (${run.code}): ${run.stderr}`);
}

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
      // The config lives in a file, as `momo-relay serve --config` reads it and `token create|revoke` rewrite it.
      const file = join(tmp, 'relay-config.json');
      const { token, tokenHash } = createRelayToken();
      writeFileSync(file, JSON.stringify({ keys: [TEST_KEY, LIVE_KEY], tills: [{ label: 'front-counter', tokenHash }], ...settings }));
      const relay = await startRelay({ dataDir: tmp, adminPort: 0, config: loadRelayConfig(file, {}), log, now });
      // What serve does when the file changes.
      const reload = () => relay.setConfig(loadRelayConfig(file, {}));
      return {
        relay,
        token,
        async sql(statement, params = []) {
          const db = new Database(join(tmp, 'relay.sqlite'));
          try {
            db.prepare(statement).run(...params);
          } finally {
            db.close();
          }
        },
        async query(statement) {
          const db = new Database(join(tmp, 'relay.sqlite'), { readonly: true });
          try {
            return db.prepare(statement).all() as Array<Record<string, unknown>>;
          } finally {
            db.close();
          }
        },
        async stored() {
          const read = (name: string) => readFileSync(join(tmp, name), { flag: 'a+' }).toString('latin1');
          return read('relay.sqlite') + read('relay.sqlite-wal');
        },
        tills: {
          async create(label) {
            const made = addTillToken(file, label);
            reload();
            return made.token;
          },
          async revoke(label) {
            await cliOk(['token', 'revoke', '--label', label, '--config', file]);
            reload();
          },
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
      const relay = await startRelay({ databaseUrl, masterKey, adminPort: 0, config: settings, log, now });
      const sql = async (statement: string, params: unknown[] = []) => {
        const client = new pg.Client(databaseUrl);
        await client.connect();
        try {
          await client.query(statement, params);
        } finally {
          await client.end();
        }
      };
      const stored = async () => {
        const client = new pg.Client(databaseUrl);
        await client.connect();
        try {
          const tables = await client.query<{ name: string }>(
            `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
              WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
          );
          let text = '';
          for (const { name } of tables.rows) {
            const rows = await client.query(`SELECT * FROM ${name}`);
            text += JSON.stringify(rows.rows, (_k, v: unknown) =>
              v && typeof v === 'object' && (v as { type?: unknown }).type === 'Buffer'
                ? Buffer.from((v as { data: number[] }).data).toString('latin1')
                : v,
            );
          }
          return text;
        } finally {
          await client.end();
        }
      };
      const pool = await openPgPool(databaseUrl, 1);
      const tills = {
        create: (label: string) => createToken(pool, TEST_MERCHANT, label),
        revoke: (label: string) =>
          cliOk(['token', 'revoke', '--merchant', TEST_MERCHANT, '--label', label], { RELAY_DATABASE_URL: databaseUrl }),
      };
      const query = async (statement: string) => (await pool.query<Record<string, unknown>>(statement)).rows;
      const cleanup = async () => {
        await pool.end();
        await relay.close();
      };
      return { relay, token, sql, stored, query, tills, cleanup };
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
