/** Fresh folders under the OS temp folder for a test's data (SQLite files, config files, a till's data). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new empty folder named momo-<prefix>-XXXXXX; the test removes it with `removeDir`. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `momo-${prefix}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** For a file that makes many: `make()` one, `removeAll()` after each test or after the file. */
export function tempDirs(prefix: string): { make(): string; removeAll(): void } {
  const made: string[] = [];
  return {
    make: () => {
      const dir = tempDir(prefix);
      made.push(dir);
      return dir;
    },
    removeAll: () => {
      for (const dir of made.splice(0)) removeDir(dir);
    },
  };
}
