/**
 * The PostgreSQL relay's management commands (each with --database-url or RELAY_DATABASE_URL):
 *
 *   relay merchant add --id MCH_… [--name "…"]
 *   relay merchant list [--json]
 *   relay merchant suspend|resume|remove --id MCH_…             (admin-commands.ts)
 *   relay key add --merchant MCH_… --public-id pk_… < secret-on-stdin
 *   relay key list --merchant MCH_… [--json]
 *   relay key remove --public-id pk_…
 *   relay token create --merchant MCH_… --label <name>   (prints the rt_… token alone on stdout, once)
 *   relay token list [--merchant MCH_…] [--json]
 *   relay token revoke --merchant MCH_… --label <name>
 *   relay log-id new --merchant MCH_…|--all                        (admin-commands.ts)
 *   relay admin-token create|list|revoke [--label <name>]          (admin-commands.ts)
 *   relay master-key rotate [--new-key-file <file>] (or the new key on stdin)   (admin-commands.ts)
 *   relay import --from-sqlite <data dir> --merchant MCH_…
 *
 * Running instances see every change within a couple of seconds.
 */
import type pg from 'pg';
import {
  importFromSqlite,
  openPgPool,
  loadMasterKey,
  addKey,
  addMerchant,
  createToken,
  removeKey,
  revokeToken,
  TenantError,
} from '../store/pg/index.js';
import { ADMIN_NOUNS, adminCommand } from './admin-commands.js';
import { readStdin, required, type PgCliValues } from './input.js';
import { listCommand } from './pg-list-commands.js';

export type { PgCliValues } from './input.js';
import { out, PROG } from './usage.js';

/** Its errors said plainly (relay/cli/main.ts: each family of commands brings its own). */
export { plainMessage } from './plain-errors.js';

/** An unknown or missing verb: the verbs there are, as typed. */
function verbs(noun: string, verb: string | undefined, known: string[]): TenantError {
  const what = verb ? `Unknown command "${noun} ${verb}"` : `${noun} needs a command`;
  return new TenantError(`${what}: ${known.map((k) => `${PROG} ${noun} ${k}`).join(', ')}`);
}

async function merchantCommand(pool: pg.Pool, verb: string | undefined, v: PgCliValues): Promise<void> {
  if (verb === 'add') {
    const id = required(v.id, 'id MCH_…', 'merchant add');
    await addMerchant(pool, id, v.name);
    console.error(
      `Merchant ${id} added. Next: ${PROG} key add --merchant ${id} --public-id pk_… < secret, and ${PROG} token create --merchant ${id} --label <till>.`,
    );
  } else if (verb === 'list') await listCommand(pool, 'merchant', v);
  else if (verb === 'suspend' || verb === 'resume' || verb === 'remove') return adminCommand(pool, ['merchant', verb], v);
  else throw verbs('merchant', verb, ['add', 'list', 'suspend', 'resume', 'remove']);
}

async function keyCommand(pool: pg.Pool, verb: string | undefined, v: PgCliValues): Promise<void> {
  if (verb === 'list') return listCommand(pool, 'key', v);
  const publicId = required(v['public-id'], 'public-id pk_…', `key ${verb ?? ''}`.trim());
  if (verb === 'add') {
    const merchant = required(v.merchant, 'merchant MCH_…', 'key add');
    const masterKey = loadMasterKey(v['master-key-file']);
    await addKey(pool, masterKey, merchant, publicId, await readStdin());
    console.error(`Key ${publicId} added to ${merchant} (secret sealed with the master key). Running relays accept it within seconds.`);
  } else if (verb === 'remove') {
    const removed = await removeKey(pool, publicId);
    if (!removed) throw new TenantError(`No key ${publicId}`);
    console.error(`Key ${publicId} removed from ${removed.merchantId}. Its deliveries are refused from now on.`);
  } else throw verbs('key', verb, ['add', 'list', 'remove']);
}

async function tokenCommand(pool: pg.Pool, verb: string | undefined, v: PgCliValues): Promise<void> {
  if (verb === 'list') return listCommand(pool, 'token', v);
  if (verb !== 'create' && verb !== 'revoke') throw verbs('token', verb, ['create', 'list', 'revoke']);
  const merchant = required(v.merchant, 'merchant MCH_…', `token ${verb ?? ''}`.trim());
  if (verb === 'create') {
    const label = required(v.label, 'label <name>', 'token create');
    out(await createToken(pool, merchant, label));
    console.error(`Token for till "${label}" of ${merchant} created; only its hash is stored. This is the only time it is shown.`);
  } else if (verb === 'revoke') {
    const label = required(v.label, 'label <name>', 'token revoke');
    if (!(await revokeToken(pool, merchant, label))) throw new TenantError(`${merchant} has no till labelled "${label}"`);
    console.error(`Token of till "${label}" revoked; its open streams end within seconds on every instance.`);
  } else throw verbs('token', verb, ['create', 'list', 'revoke']);
}

async function importCommand(pool: pg.Pool, v: PgCliValues): Promise<void> {
  const dataDir = required(v['from-sqlite'], 'from-sqlite <data dir>', 'import');
  const merchant = required(v.merchant, 'merchant MCH_…', 'import');
  const r = await importFromSqlite(pool, dataDir, merchant);
  out(JSON.stringify({ merchant, ...r }));
  for (const c of r.conflicts)
    console.error(
      `Not imported: ${c.row} (${c.environment}): ${merchant} holds another final state (${c.fields.join(', ')} differ); the stored one is kept.`,
    );
  console.error(
    `Copied ${r.copied} events into ${merchant} (sequences ${r.fromSeq + 1}-${r.toSeq}; ${r.skipped} already there, ${r.conflicts.length} with another final state). ` +
      (r.copied > 0 ? 'Its log has a new id: tills read it again from the start.' : 'Its log keeps its id.'),
  );
}

/** Runs one management command against the database. */
export async function runPgCommand(positionals: string[], v: PgCliValues, databaseUrl: string): Promise<void> {
  const pool = await openPgPool(databaseUrl, 2);
  try {
    const [noun, verb] = positionals;
    if (noun === 'merchant') await merchantCommand(pool, verb, v);
    else if (noun === 'key') await keyCommand(pool, verb, v);
    else if (noun === 'token') await tokenCommand(pool, verb, v);
    else if (noun === 'import') await importCommand(pool, v);
    else if (noun === 'audit') throw verbs('audit', verb, ['list']);
    else if (noun && ADMIN_NOUNS.includes(noun)) await adminCommand(pool, positionals, v);
    else throw new TenantError(`Unknown command "${positionals.join(' ')}"`);
  } finally {
    await pool.end();
  }
}
