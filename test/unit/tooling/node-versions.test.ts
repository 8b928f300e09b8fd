/** One statement of the supported Node versions: every engines field and the documents that name versions agree. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const SUPPORTED = '^22.12.0 || ^24.0.0';
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const engines = (path: string) => (JSON.parse(read(path)) as { engines?: { node?: string } }).engines?.node;

describe('supported Node versions', () => {
  it('every package says the same: 22 (22.12 or later) and 24', () => {
    expect(engines('package.json')).toBe(SUPPORTED);
    expect(engines('relay/package.json')).toBe(SUPPORTED);
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: string } }> };
    expect(lock.packages['']?.engines?.node).toBe(SUPPORTED);
  });

  it('the README and the operator guide say the same', () => {
    expect(read('README.md')).toContain('supports Node 22 (22.12 or later) and Node 24');
    const guide = read('relay/docs/operator-guide.md');
    expect(guide).toContain('Node 22 or 24');
    expect(guide).not.toMatch(/Node (1[0-9]|20)(\.\d+)? or later/);
  });
});
