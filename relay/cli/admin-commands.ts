/**
 * The PostgreSQL relay's admin commands (each with --database-url or RELAY_DATABASE_URL):
 *
 *   relay merchant suspend|resume|remove --id MCH_… [--discard-unread <count>]  (remove: the count of events no till has read)
 *   relay log-id new --merchant MCH_…|--all           (after restoring a backup)
 *   relay admin-token create --label <name> [--expires-in 90d]   (prints the at_… token alone on stdout, once)
 *   relay admin-token list [--json] [--limit <n>] [--after <cursor>]
 *   relay admin-token revoke --label <name>
 *   relay master-key rotate [--new-key-file <file>]    (else the new key on stdin; writes the key files itself)
 *   relay master-key check --key-file <file>           (exit 0 only when nothing is sealed with that key)
 *
 * Every change is written to the audit table as `cli:<user>`.
 */
import { existsSync, unlinkSync } from 'node:fs';
import type pg from 'pg';
import {
  createAdminTokenWithId,
  decodeKey,
  listAdminTokens,
  readMasterKeyFile,
  removeMerchant,
  renewLogIds,
  revokeAdminToken,
  rotateMasterKey,
  sealedWith,
  setSuspended,
  TenantError,
} from '../store/pg/index.js';
import { expiryFrom, readStdin, required, type PgCliValues } from './input.js';
import { keyIn, moveKeyFile, writeKeyFile } from './key-files.js';
import { printPaged } from './paging.js';
import { out, PROG } from './usage.js';

export const ADMIN_NOUNS: readonly string[] = ['admin-token', 'master-key', 'log-id'];

async function merchantAdmin(pool: pg.Pool, verb: string, v: PgCliValues): Promise<void> {
  const id = required(v.id, 'id MCH_…', `merchant ${verb}`);
  if (verb === 'suspend' || verb === 'resume') {
    const changed = await setSuspended(pool, id, verb === 'suspend');
    if (!changed) console.error(`Merchant ${id} was already ${verb === 'suspend' ? 'suspended' : 'active'}; nothing changed.`);
    else if (verb === 'suspend') {
      console.error(
        `Merchant ${id} suspended: its deliveries are answered 403 MERCHANT_SUSPENDED (the service retries them 8 times) and its tills' streams end.`,
      );
    } else console.error(`Merchant ${id} resumed: deliveries and tills are served again within seconds.`);
  } else if (verb === 'remove') {
    const discard = v['discard-unread'];
    if (discard !== undefined && !/^[0-9]{1,15}$/.test(discard)) {
      throw new TenantError(
        'merchant remove: --discard-unread takes the count of unread events the refusal named, e.g. --discard-unread 12',
      );
    }
    const { events, discardedUnread } = await removeMerchant(pool, id, undefined, {
      discardUnread: discard === undefined ? undefined : Number(discard),
    });
    const unread = discardedUnread ? ` (${discardedUnread} of them read by no till)` : '';
    console.error(`Merchant ${id} removed, with its keys, tokens and ${events} events${unread}.`);
  } else throw new TenantError('merchant: add, list, suspend, resume or remove');
}

async function logIdCommand(pool: pg.Pool, verb: string | undefined, v: PgCliValues): Promise<void> {
  if (verb !== 'new') throw new TenantError('log-id on PostgreSQL: new --merchant MCH_… or new --all');
  if (v.all && v.merchant) throw new TenantError('log-id new: give --merchant MCH_… or --all, not both');
  const ids = await renewLogIds(pool, v.all ? 'all' : { merchantId: required(v.merchant, 'merchant MCH_… (or --all)', 'log-id new') });
  for (const [merchant, logId] of ids) out(`${merchant}\t${logId}`);
  console.error(`New log id for ${ids.size} merchant(s): their tills read the log again from the start when they next connect.`);
}

/** An admin token's place in its list: its number. */
function adminTokenNumber(place: string): number {
  if (!/^[0-9]{1,15}$/.test(place)) throw new TenantError('--after: not a cursor of admin-token list');
  return Number(place);
}

async function adminTokenCommand(pool: pg.Pool, verb: string | undefined, v: PgCliValues): Promise<void> {
  if (verb === 'create') {
    const label = required(v.label, 'label <name>', 'admin-token create');
    const made = await createAdminTokenWithId(pool, label, undefined, { expiresAt: expiryFrom(v['expires-in']) });
    out(made.token);
    console.error(
      `Admin token ${made.id} ("${label}") created${made.expiresAt ? `, refused after ${made.expiresAt}` : ''}; only its hash is stored. ` +
        `This is the only time it is shown; the audit names it admin:${made.id}.`,
    );
  } else if (verb === 'list') {
    await printPaged(
      v,
      (page) => listAdminTokens(pool, { after: page.after === undefined ? undefined : adminTokenNumber(page.after), limit: page.limit }),
      (t) => String(t.id),
      (t) =>
        [
          String(t.id),
          t.label,
          `created=${t.createdAt}`,
          `lastUsed=${t.lastUsedAt ?? 'never'}`,
          `expires=${t.expiresAt ?? 'never'}`,
          ...(t.revokedAt ? [`revoked=${t.revokedAt}`] : []),
        ].join('\t'),
    );
  } else if (verb === 'revoke') {
    const label = required(v.label, 'label <name>', 'admin-token revoke');
    if (!(await revokeAdminToken(pool, label))) throw new TenantError(`No live admin token labelled "${label}"`);
    console.error(`Admin token "${label}" revoked; it is refused from now on, on every instance.`);
  } else throw new TenantError('admin-token: create, list or revoke');
}

async function masterKeyCommand(pool: pg.Pool, verb: string | undefined, v: PgCliValues): Promise<void> {
  if (verb === 'check') return checkKey(pool, required(v['key-file'], 'key-file <file>', 'master-key check'));
  if (verb !== 'rotate') throw new TenantError('master-key: rotate or check');
  const path = v['master-key-file'] ?? process.env.RELAY_MASTER_KEY_FILE;
  if (!path) {
    throw new TenantError(
      `${PROG} master-key rotate writes the new key into the key file the instances read: give --master-key-file <file> (or RELAY_MASTER_KEY_FILE)`,
    );
  }
  const pending = `${path}.new`;
  const kept = `${path}.old`;
  if (await finishInterrupted(pool, path, pending)) return;
  if (existsSync(kept)) {
    throw new TenantError(
      `${kept} is left from an earlier rotation. Check that nothing needs it (${PROG} master-key check --key-file ${kept}), remove it, then rotate.`,
    );
  }
  const oldKey = readMasterKeyFile(path);
  const file = v['new-key-file'];
  const newKey = file ? readMasterKeyFile(file) : decodeKey(await readStdin('master-key rotate', 'the new key'), 'the new key (stdin)');
  if (oldKey.equals(newKey)) throw new TenantError('master-key rotate: the new key is the same as the current one');
  // Both keys are on disk, read back, before anything is committed.
  writeKeyFile(kept, oldKey, path);
  writeKeyFile(pending, newKey, path);
  let resealed: number;
  try {
    ({ resealed } = await rotateMasterKey(pool, oldKey, newKey));
  } catch (err) {
    const stillOld = await sealedWith(pool, oldKey).then(
      (s) => s.checkValue,
      () => false,
    );
    if (stillOld) {
      unlinkSync(pending);
      unlinkSync(kept);
    } else console.error(`The rotation's outcome is unknown; ${pending} is kept: run ${PROG} master-key rotate again to finish it.`);
    throw err;
  }
  moveKeyFile(pending, path);
  out(JSON.stringify({ resealed }));
  console.error(
    `Master key rotated: ${resealed} secret(s) re-sealed in one transaction and read back with the new key, now in ${path} ` +
      `(the previous key kept in ${kept}). Running instances keep serving with the secrets they hold; restart them one at a time. ` +
      `Then ${PROG} master-key check --key-file ${kept} says whether anything still needs the old key.`,
  );
}

/** A rotation that committed but was stopped before its new key file was moved into place is finished. */
async function finishInterrupted(pool: pg.Pool, path: string, pending: string): Promise<boolean> {
  const staged = keyIn(pending);
  if (!staged) return false;
  if (!(await sealedWith(pool, staged)).checkValue) {
    unlinkSync(pending);
    return false;
  }
  moveKeyFile(pending, path);
  out(JSON.stringify({ resealed: 0, finished: true }));
  console.error(`Master key rotated: an interrupted rotation was finished; ${path} now holds the relay's key.`);
  return true;
}

/** `master-key check`: whether anything in the database is still sealed with a key (exit 0 only when nothing is). */
async function checkKey(pool: pg.Pool, file: string): Promise<void> {
  const key = readMasterKeyFile(file);
  const { checkValue, secrets, total } = await sealedWith(pool, key);
  out(JSON.stringify({ file, checkValue, secrets: secrets.length, total }));
  if (checkValue || secrets.length > 0) {
    throw new TenantError(
      `${file} is still needed: ${checkValue ? "it is the relay's master key" : 'it is not the master key'}, and ${secrets.length} of ${total} ` +
        `secret(s) are sealed with it${secrets.length > 0 ? ` (${secrets.slice(0, 10).join(', ')})` : ''}. Do not remove it.`,
    );
  }
  console.error(`Nothing is sealed with ${file} (${total} secret(s) checked): no instance needs it.`);
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
