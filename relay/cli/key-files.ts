/**
 * The master key's files, written by `master-key rotate` itself so that a rotation never commits with
 * the new key kept nowhere: each file is written whole to a temporary name, flushed to disk, given the
 * mode and owner of the key file it stands beside (the service's user must read it), renamed into
 * place and read back.
 */
import { randomBytes } from 'node:crypto';
import { chownSync, closeSync, existsSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readMasterKeyFile } from '../store/pg/index.js';

const quiet = () => undefined;

function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes `key` (base64, one line) to `path` atomically, with `like`'s owner and mode 0600, and reads it back. */
export function writeKeyFile(path: string, key: Buffer, like: string): void {
  const { uid, gid } = statSync(like);
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${key.toString('base64')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    chownSync(temp, uid, gid);
    renameSync(temp, path);
  } catch (err) {
    if (existsSync(temp)) unlinkSync(temp);
    throw err;
  }
  syncDir(dirname(path));
  if (!readMasterKeyFile(path, quiet).equals(key)) throw new Error(`${path} does not read back as the key written`);
}

/** Moves `from` over `to` (same folder) and makes the move durable. */
export function moveKeyFile(from: string, to: string): void {
  renameSync(from, to);
  syncDir(dirname(to));
}

/** The key a file holds, or null when there is no such file. */
export function keyIn(path: string): Buffer | null {
  return existsSync(path) ? readMasterKeyFile(path, quiet) : null;
}
