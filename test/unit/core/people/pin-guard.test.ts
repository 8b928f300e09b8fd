/** The PIN lock-out: kept in SQLite (a restart does not reset it), growing, and not beaten by parallel guesses. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../../electron/core/storage/database.js';
import { LOCKOUT_MAX_MS, LOCKOUT_MS, lockedMessage, MAX_ATTEMPTS, PinGuard } from '../../../../electron/core/people/pin-guard.js';

const dirs: string[] = [];
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function dbFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'momo-guard-'));
  dirs.push(dir);
  return join(dir, 'till.db');
}
function open(file: string): Db {
  const db = openDatabase(file);
  dbs.push(db);
  return db;
}
const wrong = async () => null;
const right = async () => true;

describe('PIN lock-out', () => {
  it('locks a person after 5 wrong PINs, still locked after a restart, then for longer the next time', async () => {
    const file = dbFile();
    let now = 1_000_000;
    let guard = new PinGuard(open(file), () => now);
    for (let i = 1; i < MAX_ATTEMPTS; i += 1) expect(await guard.attempt('ama', wrong)).toEqual({ value: null, lockedOut: false });
    expect(await guard.attempt('ama', wrong)).toEqual({ value: null, lockedOut: true });
    await expect(guard.attempt('ama', right)).rejects.toMatchObject({
      code: 'PIN_LOCKED',
      message: expect.stringMatching(/Try again in 60 seconds/),
    });
    expect(await guard.attempt('kofi', right)).toEqual({ value: true, lockedOut: false }); // only that person

    dbs[0]?.close(); // the app restarts
    guard = new PinGuard(open(file), () => now);
    await expect(guard.attempt('ama', right)).rejects.toMatchObject({ code: 'PIN_LOCKED' });
    now += LOCKOUT_MS;
    for (let i = 0; i < MAX_ATTEMPTS; i += 1) await guard.attempt('ama', wrong);
    expect(guard.lockedFor('ama')).toBe(2 * LOCKOUT_MS); // growing
    now += 2 * LOCKOUT_MS;
    expect(await guard.attempt('ama', right)).toEqual({ value: true, lockedOut: false });
    for (let i = 0; i < MAX_ATTEMPTS; i += 1) await guard.attempt('ama', wrong);
    expect(guard.lockedFor('ama')).toBe(LOCKOUT_MS); // a success starts the scale again
  });

  it('doubles each lock-out up to the 1-hour cap, and stays at the cap', async () => {
    let now = 10_000_000;
    const guard = new PinGuard(open(dbFile()), () => now);
    const lockouts: number[] = [];
    for (let round = 0; round < 9; round += 1) {
      for (let i = 0; i < MAX_ATTEMPTS; i += 1) await guard.attempt('ama', wrong);
      const ms = guard.lockedFor('ama');
      lockouts.push(ms);
      now += ms;
    }
    // 1, 2, 4, 8, 16, 32 minutes, then 64 would pass the hour: capped at 60 from there on.
    expect(LOCKOUT_MAX_MS).toBe(60 * 60_000);
    expect(lockouts.map((ms) => ms / 60_000)).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
    expect(guard.lockedFor('ama')).toBe(0);
  });

  it('says how long to wait: in seconds under 2 minutes, in whole minutes (rounded up) from 2 minutes', async () => {
    let now = 20_000_000;
    const guard = new PinGuard(open(dbFile()), () => now);
    for (let round = 0; round < 2; round += 1) {
      for (let i = 0; i < MAX_ATTEMPTS; i += 1) await guard.attempt('ama', wrong);
      if (round === 0) now += LOCKOUT_MS;
    }
    await expect(guard.attempt('ama', right)).rejects.toMatchObject({
      code: 'PIN_LOCKED',
      message: 'Too many wrong PINs. Try again in 2 minutes.',
    });
    now += 1_000;
    await expect(guard.attempt('ama', right)).rejects.toMatchObject({ message: 'Too many wrong PINs. Try again in 119 seconds.' });
    expect(lockedMessage(1)).toBe('Too many wrong PINs. Try again in 1 seconds.');
    expect(lockedMessage(119_001)).toBe('Too many wrong PINs. Try again in 2 minutes.');
    expect(lockedMessage(119_000)).toBe('Too many wrong PINs. Try again in 119 seconds.');
    expect(lockedMessage(120_001)).toBe('Too many wrong PINs. Try again in 3 minutes.');
    expect(lockedMessage(LOCKOUT_MAX_MS)).toBe('Too many wrong PINs. Try again in 60 minutes.');
  });

  it('is not locked before the first failure, nor once the time has passed', async () => {
    let now = 30_000_000;
    const guard = new PinGuard(open(dbFile()), () => now);
    expect(guard.lockedFor('ama')).toBe(0);
    for (let i = 0; i < MAX_ATTEMPTS; i += 1) await guard.attempt('ama', wrong);
    now += LOCKOUT_MS - 1;
    expect(guard.lockedFor('ama')).toBe(1);
    now += 1;
    expect(guard.lockedFor('ama')).toBe(0);
    now += LOCKOUT_MS;
    expect(guard.lockedFor('ama')).toBe(0);
    expect(await guard.attempt('ama', right)).toEqual({ value: true, lockedOut: false });
  });

  it('checks one PIN at a time and counts each try before its hash: 200 parallel guesses run 5 hashes', async () => {
    const guard = new PinGuard(open(dbFile()), () => 5_000_000);
    let running = 0;
    let most = 0;
    let hashes = 0;
    const slowWrong = async () => {
      running += 1;
      hashes += 1;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 2));
      running -= 1;
      return null;
    };
    const results = await Promise.allSettled(Array.from({ length: 200 }, () => guard.attempt('ama', slowWrong)));
    expect(hashes).toBe(MAX_ATTEMPTS);
    expect(most).toBe(1);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(MAX_ATTEMPTS);
    expect(results.filter((r) => r.status === 'rejected' && (r.reason as { code: string }).code === 'PIN_LOCKED')).toHaveLength(195);
  });

  it('counts a try on disk before the hash finishes (a crash mid-check still counts it)', async () => {
    const file = dbFile();
    const db = open(file);
    const guard = new PinGuard(db, () => 0);
    let seen = -1;
    await guard.attempt('ama', async () => {
      seen = (db.prepare('SELECT failures FROM pin_attempts WHERE subject = ?').get('ama') as { failures: number }).failures;
      return null;
    });
    expect(seen).toBe(1);
  });
});
