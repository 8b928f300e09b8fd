/** Tests never rewrite tracked files: the browser tests' screenshots land in a folder git ignores. */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCREENSHOTS_DIR } from '../../support/screenshots.js';

const ROOT = resolve(import.meta.dirname, '../../..');

describe('browser-test screenshots', () => {
  it('are saved in a folder git ignores, inside the repository', () => {
    const where = relative(ROOT, join(SCREENSHOTS_DIR, 'charge-filled.png'));
    expect(where.startsWith('..')).toBe(false);
    // check-ignore exits 0 (and prints the path) only when git ignores it; it throws otherwise
    expect(execFileSync('git', ['check-ignore', where], { cwd: ROOT, encoding: 'utf8' }).trim()).toBe(where);
  });

  it('are never written to docs/screenshots/ by a test (npm run screenshots publishes them)', () => {
    for (const folder of ['test/browser', 'test/browser-bridge']) {
      for (const file of readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })) {
        if (!/\.(ts|tsx)$/.test(file)) continue;
        // a string literal naming the tracked folder (a comment may mention it)
        expect(readFileSync(join(ROOT, folder, file), 'utf8'), `${folder}/${file}`).not.toMatch(/['"`][^'"`\n]*docs\/screenshots/);
      }
    }
  });
});
