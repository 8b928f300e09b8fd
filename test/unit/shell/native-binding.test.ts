/** MOMO_SQLITE_BINDING redirects better_sqlite3.node only in development, never in a packaged app. */
import { afterEach, describe, expect, it } from 'vitest';
import Module from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installNativeBinding } from '../../../electron/main/native-binding.js';

type Resolver = { _resolveFilename: (request: string, parent: unknown, isMain: boolean, options?: unknown) => string };
const mod = Module as unknown as Resolver;
const original = mod._resolveFilename;
const dir = mkdtempSync(join(tmpdir(), 'momo-binding-'));
const fake = join(dir, 'better_sqlite3.node');
writeFileSync(fake, 'not really an addon');

afterEach(() => {
  mod._resolveFilename = original;
});
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

describe('native binding redirect', () => {
  it('a packaged app ignores MOMO_SQLITE_BINDING (no native code from an environment variable)', () => {
    expect(installNativeBinding({ MOMO_SQLITE_BINDING: fake }, true)).toBeUndefined();
    expect(mod._resolveFilename).toBe(original);
  });

  it('in development it points every load of better_sqlite3.node at the given copy', () => {
    expect(installNativeBinding({ MOMO_SQLITE_BINDING: fake }, false)).toBe(fake);
    expect(mod._resolveFilename('../build/Release/better_sqlite3.node', null, false)).toBe(fake);
    expect(mod._resolveFilename('node:path', null, false)).toBe('node:path');
  });

  it('in development a missing file is a clear error; no variable means no redirect', () => {
    expect(() => installNativeBinding({ MOMO_SQLITE_BINDING: join(dir, 'missing.node') }, false)).toThrow(/points to a missing file/);
    expect(installNativeBinding({}, false)).toBeUndefined();
    expect(mod._resolveFilename).toBe(original);
  });
});
