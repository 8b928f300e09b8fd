/**
 * The PostgreSQL relay's admin commands (each with --database-url or RELAY_DATABASE_URL):
 *
 *   relay merchant suspend|resume|remove --id MCH_…
 *   relay log-id new --merchant MCH_…|--all           (after restoring a backup)
 *   relay admin-token create --label <name>            (prints the at_… token alone on stdout, once)
 *   relay admin-token list [--json]
 *   relay admin-token revoke --label <name>
 *   relay master-key rotate [--new-key-file <file>]    (else the new key on stdin)
 *
 * Every change is written to the audit table as `cli:<user>`.
 */
import type pg from 'pg';
import {
  createAdminToken,
  decodeKey,
  listAdminTokens,
  loadMasterKey,
  readMasterKeyFile,
  removeMerchant,
  renewLogIds,
  revokeAdminToken,
  rotateMasterKey,
  setSuspended,
  TenantError,
} from '../store/pg/index.js';
import { printList, readStdin, required, type PgCliValues } from './input.js';
import { out } from './usage.js';

export const ADMIN_NOUNS: readonly string[] = ['admin-token', 'master-key', 'log-id'];

async function merchantAdmin(pool: pg.Pool, verb: string, v: PgCliValues): Promise<void> {
  const id = required(v.id, 'id MCH_…', `merchant ${verb}`);
  if (verb === 'suspend' || verb === 'resume') {
    const changed = await setSuspended(pool, id, verb === 'suspend');
    if (!changed) console.error(`Merchant ${id} was already ${verb === 'suspend' ? 'suspended' : 'active'}; nothing changed.`);
    else if (verb === 'suspend') {
      console.error(`Merchant ${id} suspended: its deliveries are answered 503 (the service retries) and its tills' streams end.`);
    } else console.error(`Merchant ${id} resumed: deliveries and tills are served again within seconds.`);
  } else if (verb === 'remove') {
    const { events } = await removeMerchant(pool, id);
    console.error(`Merchant ${id} removed, with its keys, tokens and ${events} events.`);
  } else throw new TenantError('merchant: add, list, suspend, resume or remove');
}

async function logIdCommand(pool: pg.Pool, verb: string | undefined, v: PgCliValues): Promise<void> {
  if (verb !== 'new') throw new TenantError('log-id on PostgreSQL: new --merchant MCH_… or new --all');
  if (v.all && v.merchant) throw new TenantError('log-id new: give --merchant MCH_… or --all, not both');
  const ids = await renewLogIds(pool, v.all ? 'all' : { merchantId: required(v.merchant, 'merchant MCH_… (or --all)', 'log-id new') });
  for (const [merchant, logId] of ids) out(`${merchant}\t${logId}`);
  console.error(`New log id for ${ids.size} merchant(s): their tills read the log again from the start when they next connect.`);
}

async function adminTokenCommand(pool: pg.Pool, verb: string | undefined, v: PgCliValues): Promise<void> {
  if (verb === 'create') {
    out(await createAdminToken(pool, required(v.label, 'label <name>', 'admin-token create')));
    console.error('Admin token created; only its hash is stored. This is the only time it is shown.');
  } else if (verb === 'list') {
    printList(v, await listAdminTokens(pool), (t) =>
      [t.label, `created=${t.createdAt}`, `lastUsed=${t.lastUsedAt ?? 'never'}`, ...(t.revokedAt ? [`revoked=${t.revokedAt}`] : [])].join(
        '\t',
      ),
    );
  } else if (verb === 'revoke') {
    const label = required(v.label, 'label <name>', 'admin-token revoke');
    if (!(await revokeAdminToken(pool, label))) throw new TenantError(`No live admin token labelled "${label}"`);
    console.error(`Admin token "${label}" revoked; it is refused from now on, on every instance.`);
  } else throw new TenantError('admin-token: create, list or revoke');
}

async function masterKeyCommand(pool: pg.Pool, verb: string | undefined, v: PgCliValues): Promise<void> {
  if (verb !== 'rotate') throw new TenantError('master-key: rotate');
  const oldKey = loadMasterKey(v['master-key-file']);
  const file = v['new-key-file'];
  const newKey = file ? readMasterKeyFile(file) : decodeKey(await readStdin('master-key rotate', 'the new key'), 'the new key (stdin)');
  const { resealed } = await rotateMasterKey(pool, oldKey, newKey);
  out(JSON.stringify({ resealed }));
  console.error(
    `Master key rotated: ${resealed} secret(s) re-sealed in one transaction. Running instances keep serving with the secrets ` +
      'they hold; restart them one at a time with the new key (keep the old one as RELAY_MASTER_KEY_PREVIOUS_FILE until all have restarted).',
  );
}

/** Runs one admin command (`positionals`: noun, verb). */
export async function adminCommand(pool: pg.Pool, positionals: string[], v: PgCliValues): Promise<void> {
  const [noun, verb] = positionals;
  if (noun === 'merchant') return merchantAdmin(pool, verb ?? '', v);
  if (noun === 'log-id') return logIdCommand(pool, verb, v);
  if (noun === 'admin-token') return adminTokenCommand(pool, verb, v);
  if (noun === 'master-key') return masterKeyCommand(pool, verb, v);
  throw new TenantError(`Unknown command "${positionals.join(' ')}"`);
}
