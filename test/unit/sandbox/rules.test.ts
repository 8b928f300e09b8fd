import { afterEach, describe, expect, it } from 'vitest';
import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { testOutcomeFor, resultOf } from '../../../sandbox/outcomes.js';
import { resolveAccountName, ACCOUNT_NAMES } from '../../../sandbox/names.js';
import { SecretBox, sha256Hex, newMerchantId, newKeyPair } from '../../../sandbox/secrets.js';
import { keyCreationBlock, MerchantStore } from '../../../sandbox/merchants.js';
import { openDb, SCHEMA_VERSION } from '../../../sandbox/db.js';
import { MERCHANT_ID, PUBLIC_KEY_ID, SECRET_KEY } from '../../../shared/wire/keys.js';
import { tempDirs } from '../../support/temp-dir.js';

const dirs = tempDirs('sandbox-rules');
const tempDir = dirs.make;
afterEach(dirs.removeAll);

describe('test-mode outcome table (MSISDN last two digits)', () => {
  it.each([
    ['233241234500', 'AUTHORISE', 2_000, 'SUCCESS'],
    ['233241234501', 'DECLINE', 2_000, 'FAILED'],
    ['233241234502', 'TIMEOUT', 60_000, 'FAILED'],
    ['233241234503', 'INSUFFICIENT_FUNDS', 2_000, 'FAILED'],
    ['233241234504', 'NETWORK_REJECTED', 500, 'FAILED'],
    ['233241234505', 'AUTHORISE_REPORTED_THRICE', 2_000, 'SUCCESS'],
    ['233241234506', 'AUTHORISE', 30_000, 'SUCCESS'],
    ['233241234507', 'AUTHORISE_NO_CALLBACK', 2_000, 'SUCCESS'],
    ['233241234508', 'AUTHORISE', 2_000, 'SUCCESS'],
    ['233241234511', 'AUTHORISE', 2_000, 'SUCCESS'],
  ] as const)('%s -> %s after %d ms -> %s', (msisdn, outcome, delay, status) => {
    const plan = testOutcomeFor(msisdn, 60_000);
    expect(plan).toEqual({ outcome, delayMs: delay });
    expect(resultOf(plan.outcome as Exclude<typeof plan.outcome, 'MANUAL'>).status).toBe(status);
  });

  it('the prompt time-out is the configured one', () => {
    expect(testOutcomeFor('233241234502', 7_000)).toEqual({ outcome: 'TIMEOUT', delayMs: 7_000 });
  });

  it('failure reasons are kept apart', () => {
    expect(resultOf('DECLINE')).toEqual({ status: 'FAILED', reason: 'DECLINED' });
    expect(resultOf('INSUFFICIENT_FUNDS')).toEqual({ status: 'FAILED', reason: 'INSUFFICIENT_FUNDS' });
    expect(resultOf('NETWORK_REJECTED')).toEqual({ status: 'FAILED', reason: 'NETWORK_REJECTED' });
    expect(resultOf('TIMEOUT')).toEqual({ status: 'FAILED', reason: 'TIMEOUT' });
  });
});

describe('account names', () => {
  it('are deterministic and from the list', () => {
    const a = resolveAccountName('233241234567');
    expect(a).toBe(resolveAccountName('233241234567'));
    expect(ACCOUNT_NAMES).toContain(a);
    const names = new Set(['233241234567', '233201112223', '233551234560', '233271234561', '233501112228'].map(resolveAccountName));
    expect(names.size).toBeGreaterThan(1);
  });
  it('numbers ending in 99 have no account', () => {
    expect(resolveAccountName('233241234599')).toBeNull();
  });
});

describe('key material', () => {
  it('ids and keys have the spec shapes', () => {
    expect(newMerchantId()).toMatch(MERCHANT_ID);
    const test = newKeyPair('test');
    const live = newKeyPair('live');
    expect(test.publicId).toMatch(PUBLIC_KEY_ID);
    expect(test.secret).toMatch(SECRET_KEY);
    expect(test.secret.startsWith('sk_test_')).toBe(true);
    expect(live.publicId.startsWith('pk_live_')).toBe(true);
    expect(live.secret.startsWith('sk_live_')).toBe(true);
  });

  it('the master key file is 32 bytes, mode 0600, and reused', () => {
    const dir = tempDir();
    const box = SecretBox.open(dir);
    const path = join(dir, 'master.key');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path)).toHaveLength(32);
    const blob = box.encrypt('sk_test_secretvalue1234567890', 'pk_test_x');
    expect(SecretBox.open(dir).decrypt(blob, 'pk_test_x')).toBe('sk_test_secretvalue1234567890');
  });

  it('ciphertext is bound to its key id and tamper-evident', () => {
    const box = SecretBox.open(tempDir());
    const blob = box.encrypt('sk_test_secretvalue1234567890', 'pk_test_a');
    expect(blob.toString('utf8')).not.toContain('secretvalue');
    expect(() => box.decrypt(blob, 'pk_test_b')).toThrow();
    const tampered = Buffer.from(blob);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] as number) ^ 1;
    expect(() => box.decrypt(tampered, 'pk_test_a')).toThrow();
    expect(() => SecretBox.open(tempDir()).decrypt(blob, 'pk_test_a')).toThrow();
  });
});

describe('key creation by merchant status (spec 3.2)', () => {
  it.each([
    ['PENDING_REVIEW', 'test', true],
    ['PENDING_REVIEW', 'live', false],
    ['APPROVED', 'test', true],
    ['APPROVED', 'live', true],
    ['SUSPENDED', 'test', false],
    ['SUSPENDED', 'live', false],
    ['REJECTED', 'test', false],
    ['REJECTED', 'live', false],
  ] as const)('%s may create a %s key: %s', (status, environment, allowed) => {
    expect(keyCreationBlock(status, environment) === null).toBe(allowed);
  });

  it('the store keeps a hash and ciphertext, never the secret in clear', () => {
    const dir = tempDir();
    const db = openDb(dir);
    const store = new MerchantStore(db, SecretBox.open(dir), () => 1);
    const demo = store.ensureDemo();
    const row = db.prepare('SELECT * FROM api_keys WHERE public_id = ?').get(demo.keys.test.publicId) as Record<string, unknown>;
    expect(row.secret_sha256).toBe(sha256Hex(demo.keys.test.secret));
    expect(Buffer.from(row.secret_encrypted as Buffer).includes(Buffer.from(demo.keys.test.secret))).toBe(false);
    expect(store.secretOf(demo.keys.test.publicId)).toBe(demo.keys.test.secret);
    expect(store.ensureDemo()).toEqual(demo);
    db.close();
    for (const file of ['sandbox.sqlite', 'sandbox.sqlite-wal']) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(join(dir, file));
      } catch {
        continue;
      }
      expect(bytes.includes(Buffer.from(demo.keys.test.secret))).toBe(false);
      expect(bytes.includes(Buffer.from(demo.keys.live.secret))).toBe(false);
    }
  });
});

describe('database', () => {
  it('is WAL with synchronous=NORMAL and at the current schema version', () => {
    const db = openDb(tempDir());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL: durable across a kill, no fsync per commit
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('refuses a database from a newer version', () => {
    const dir = tempDir();
    const raw = new Database(join(dir, 'sandbox.sqlite'));
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openDb(dir)).toThrow(/newer version/);
  });
});
