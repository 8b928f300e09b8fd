/**
 * The PostgreSQL relay's lists, a family of commands of their own (relay/cli/main.ts): `relay merchant
 * list`, `relay key list --merchant MCH_…`, `relay token list [--merchant MCH_…]`, `relay audit list
 * [--merchant MCH_…]`, each `[--json] [--limit <n>] [--after <cursor>]` (paging.ts).
 * They load pg and the queries they run, not zod, the config's schemas or the master key code, so a
 * list costs little more than starting node.
 */
import type pg from 'pg';
import { listAudit, listKeys, listMerchants, listTokens, openPgPool } from '../store/pg/index.js';
import { required, type PgCliValues } from './input.js';
import { printPaged } from './paging.js';

/** Its errors said plainly (relay/cli/main.ts: each family of commands brings its own). */
export { plainMessage } from './plain-errors.js';

/** Prints the list of `noun` (one of store-choice.ts's LISTED). */
export async function listCommand(pool: pg.Pool, noun: string, v: PgCliValues): Promise<void> {
  if (noun === 'merchant') {
    await printPaged(
      v,
      (page) => listMerchants(pool, undefined, page),
      (m) => m.id,
      (m) =>
        [
          m.id,
          m.name ?? '',
          `lastSeq=${m.lastSeq}`,
          `keys=${m.keys}`,
          `tokens=${m.tokens}`,
          m.createdAt,
          ...(m.suspendedAt ? ['suspended'] : []),
        ].join('\t'),
    );
  } else if (noun === 'key') {
    const merchant = required(v.merchant, 'merchant MCH_…', 'key list');
    await printPaged(
      v,
      (page) => listKeys(pool, merchant, page),
      (k) => k.publicId,
      (k) => [k.publicId, k.environment, `created=${k.createdAt}`, `lastUsed=${k.lastUsedAt ?? 'never'}`].join('\t'),
    );
  } else if (noun === 'audit') {
    // Newest first: the next page holds older lines.
    await printPaged(
      v,
      (page) => listAudit(pool, { merchantId: v.merchant, ...page }),
      (a) => String(a.id),
      (a) => [String(a.id), a.at, a.actor, a.action, a.merchantId ?? '-', a.target ?? '-', JSON.stringify(a.detail ?? null)].join('\t'),
    );
  } else {
    await printPaged(
      v,
      (page) => listTokens(pool, v.merchant, page),
      (t) => `${t.merchantId} ${t.label}`,
      (t) => [t.merchantId, t.label, `created=${t.createdAt}`, `lastUsed=${t.lastUsedAt ?? 'never'}`].join('\t'),
    );
  }
}
/** Runs `<noun> list` against the database. */
export async function runPgList(noun: string, v: PgCliValues, databaseUrl: string): Promise<void> {
  const pool = await openPgPool(databaseUrl, 2);
  try {
    await listCommand(pool, noun, v);
  } finally {
    await pool.end();
  }
}
