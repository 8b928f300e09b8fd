/**
 * The operator's commands for the owner's phone links, on either store:
 *
 *   relay owner-link list --merchant MCH_… [--json]     (PostgreSQL: --database-url or RELAY_DATABASE_URL)
 *   relay owner-link revoke --id ol_…
 *   relay owner-link list --data <dir> [--json]          (the single shop's SQLite relay)
 *   relay owner-link revoke --id ol_… --data <dir>
 *
 * A link turned off here records that the operator did it, so its open pages say so ("turned off by
 * the relay's operator"), within seconds on every running instance. On PostgreSQL the change is audited.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { OwnerLink } from '../store/index.js';
import { listOwnerLinks, OWNER_LINK_ID, openPgPool, revokeOwnerLink, TenantError } from '../store/pg/index.js';
import { DB_FILE_NAME, openRelayDatabase, SOLE_MERCHANT, SqliteOwnerView } from '../store/sqlite/index.js';
import { required, type PgCliValues } from './input.js';
import { pageOf, printPaged } from './paging.js';
import { fail, PROG } from './usage.js';

/** Its errors said plainly (relay/cli/main.ts: each family of commands brings its own). */
export { plainMessage } from './plain-errors.js';

const VERBS = ['list', 'revoke'];

/** What `list` prints: never a token (only its hash is stored), never the hash. */
function listed(l: OwnerLink) {
  const { id, merchantId, environment, label, timeZone, createdBy, createdAt, lastUsedAt, revokedAt, revokedBy } = l;
  return { id, merchantId, environment, label, timeZone, createdBy, createdAt, lastUsedAt, revokedAt, revokedBy };
}

function line(l: ReturnType<typeof listed>): string {
  return [
    l.id,
    l.environment,
    JSON.stringify(l.label),
    `timeZone=${l.timeZone}`,
    `created=${l.createdAt}`,
    `lastUsed=${l.lastUsedAt ?? 'never'}`,
    l.revokedAt ? `off=${l.revokedAt} by ${l.revokedBy ?? 'owner'}` : 'on',
  ].join('\t');
}

/** A single shop's link's place in its list, newest first: when it was made, then its id (as PostgreSQL orders them). */
const linkPlace = (l: { id: string; createdAt: string }) => `${l.createdAt} ${l.id}`;

function verbError(verb: string | undefined): TenantError {
  const what = verb ? `Unknown command "owner-link ${verb}"` : 'owner-link needs a command';
  return new TenantError(`${what}: ${VERBS.map((k) => `${PROG} owner-link ${k}`).join(', ')}`);
}

function said(l: OwnerLink, changed: boolean): string {
  if (!changed)
    return `Link ${l.id} ("${l.label}") of ${l.merchantId} was already off (since ${l.revokedAt}, by the ${l.revokedBy}); nothing changed.`;
  return (
    `Link ${l.id} ("${l.label}", ${l.environment.toUpperCase()}) of ${l.merchantId} turned off. ` +
    "Open pages of it say it was turned off by the relay's operator within seconds; the shop owner can make a new one at the till."
  );
}

/** `owner-link …` on PostgreSQL. */
export async function pgOwnerLinkCommand(positionals: string[], v: PgCliValues, databaseUrl: string): Promise<void> {
  const verb = positionals[1];
  if (verb !== 'list' && verb !== 'revoke') throw verbError(verb);
  const pool = await openPgPool(databaseUrl, 2);
  try {
    if (verb === 'list') {
      const merchant = required(v.merchant, 'merchant MCH_…', 'owner-link list');
      return await printPaged(
        v,
        async (page) => (await listOwnerLinks(pool, merchant, page)).map(listed),
        (l) => l.id,
        line,
      );
    }
    const { link, changed } = await revokeOwnerLink(pool, required(v.id, 'id ol_…', 'owner-link revoke'));
    console.error(said(link, changed));
  } finally {
    await pool.end();
  }
}

/** `owner-link … --data <dir>` on the single shop's SQLite relay (safe while it runs: SQLite's WAL). */
export async function sqliteOwnerLinkCommand(positionals: string[], v: PgCliValues & { data?: string }): Promise<void> {
  const verb = positionals[1];
  if (verb !== 'list' && verb !== 'revoke') throw verbError(verb);
  const dataDir = v.data ?? process.env.RELAY_DATA_DIR;
  if (!dataDir) fail(`${PROG} owner-link … needs --data <dir> (or RELAY_DATA_DIR), or --database-url on PostgreSQL`);
  if (v.merchant && v.merchant !== SOLE_MERCHANT) {
    throw new TenantError(`The single-shop relay in ${dataDir} has one merchant (${SOLE_MERCHANT}); leave out --merchant`);
  }
  if (!existsSync(join(dataDir, DB_FILE_NAME))) fail(`No relay database in ${dataDir} (expected ${DB_FILE_NAME})`);
  const db = openRelayDatabase(dataDir);
  try {
    const view = new SqliteOwnerView(db, SOLE_MERCHANT);
    if (verb === 'list') {
      const links = (await view.listLinks(SOLE_MERCHANT)).map(listed);
      return await printPaged(v, async (page) => pageOf(links, linkPlace, page, 'descending'), linkPlace, line);
    }
    const id = required(v.id, 'id ol_…', 'owner-link revoke');
    const before = OWNER_LINK_ID.test(id) ? (await view.listLinks(SOLE_MERCHANT)).find((l) => l.id === id) : undefined;
    if (!before) throw new TenantError(`No owner link ${id}`);
    if (!before.revokedAt) await view.revokeLink(SOLE_MERCHANT, id, new Date().toISOString(), 'operator');
    const after = (await view.listLinks(SOLE_MERCHANT)).find((l) => l.id === id) ?? before;
    console.error(said(after, !before.revokedAt));
  } finally {
    db.close();
  }
}
