/**
 * What the relay, the till and the sandbox do alike with their SQLite files: a data folder only
 * their user can open, database files only their user can read (customers' numbers are in them),
 * and a damaged file said plainly, by name, with what to do, instead of a raw stack trace.
 */
import type Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';

export class DamagedDatabaseError extends Error {
  override name = 'DamagedDatabaseError';
}

/** Creates `dir` 0700. Returns the mode of an existing folder that others may enter, else null. */
export function ensurePrivateDir(dir: string): string | null {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = statSync(dir).mode & 0o777;
  return mode & 0o077 ? mode.toString(8).padStart(3, '0') : null;
}

/** The database file and its WAL and shared-memory files: readable and writable by the owner only. */
export function restrictToOwner(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
}

const DAMAGE_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB']);

/** True for the errors a damaged file gives (as opposed to a locked or full one). */
export function isDamage(err: unknown): boolean {
  const code = String((err as { code?: unknown }).code ?? '');
  return DAMAGE_CODES.has(code) || code.startsWith('SQLITE_CORRUPT');
}

export function damaged(file: string, problem: string, advice: string): DamagedDatabaseError {
  return new DamagedDatabaseError(`The database ${file} is damaged (${problem.slice(0, 200)}). ${advice}`);
}

/** PRAGMA quick_check: every page and index readable and consistent (O(size), once at start). */
export function checkIntegrity(db: Database.Database, file: string, advice: string): void {
  const rows = db.pragma('quick_check(3)') as Array<{ quick_check: string }>;
  const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
  if (problems.length > 0) throw damaged(file, problems.join('; '), advice);
}
