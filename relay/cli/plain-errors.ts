/**
 * Errors the operator can act on, said in one line without a stack trace: a bad config, a bad master
 * key or tenant, a damaged SQLite file or one that cannot be opened, a database that cannot be reached or
 * opened, a port in use.
 * Anything else is a bug, and keeps its stack.
 */
import { DamagedDatabaseError } from '../../shared/sqlite-file.js';
import { RelayConfigError } from '../ops/index.js';
import { MasterKeyError, PgSchemaError, PgSetupError, PgUnreachableError, TenantError } from '../store/pg/index.js';
import { asTyped } from './usage.js';

const PLAIN = [RelayConfigError, MasterKeyError, TenantError, DamagedDatabaseError, PgUnreachableError, PgSetupError, PgSchemaError];

/** A multi-line message ("Invalid relay config (…):\n  a: …\n  b: …") as one line ("…: a: …; b: …"). */
export function oneLine(message: string): string {
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.reduce((text, line) => (text === '' ? line : `${text}${text.endsWith(':') ? ' ' : '; '}${line}`), '');
}

/** The one line to print for `err`, or undefined when it is unexpected (then its stack is printed). */
export function plainMessage(err: unknown): string | undefined {
  if (PLAIN.some((type) => err instanceof type)) return oneLine(asTyped((err as Error).message));
  const e = err as NodeJS.ErrnoException & { port?: number; address?: string };
  if (e.syscall === 'listen' && (e.code === 'EADDRINUSE' || e.code === 'EACCES' || e.code === 'EADDRNOTAVAIL')) {
    const what = {
      EADDRINUSE: 'is already in use',
      EACCES: 'needs privileges this user lacks',
      EADDRNOTAVAIL: 'is not an address of this machine',
    };
    return `Cannot listen on ${e.address ?? ''}:${e.port ?? ''}: the ${e.code === 'EADDRNOTAVAIL' ? 'host' : 'port'} ${what[e.code]} (--host, --port)`;
  }
  // The single shop's SQLite file cannot be opened: most often a data folder this user may not write, e.g.
  // under systemd's ProtectSystem=strict without ReadWritePaths= (relay/docs/operator-guide.md, "One shop (SQLite) under systemd").
  if (e.name === 'SqliteError' && e.code === 'SQLITE_CANTOPEN') {
    return `Cannot open the relay's SQLite file in its data folder (--data, RELAY_DATA_DIR): ${e.message}. The folder must be writable by this user (under systemd: ReadWritePaths=)`;
  }
  // A PostgreSQL error at start (it carries a SQLSTATE): its message is the server's own, with no address in it.
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && 'severity' in e) {
    return oneLine(`The relay database answered: ${e.message} (SQLSTATE ${e.code})`);
  }
  return undefined;
}
