/**
 * Cruises a small tree of files with the project's own .dependency-cruiser.cjs through the real
 * dependency-cruiser CLI, and gives each violation as `<rule> <from> -> <to>`, sorted: the fixture tests
 * of the import boundaries compare that list with the one they expect.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { removeDir, tempDir } from './temp-dir.js';

const ROOT = resolve(import.meta.dirname, '../..');

type Violation = { rule: { name: string }; from: string; to: string };

export function cruiseFixture(name: string, tree: Record<string, string>, folders: string[]): string[] {
  const dir = tempDir(name);
  try {
    for (const [path, text] of Object.entries(tree)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), `${text}\n`);
    }
    const cli = join(ROOT, 'node_modules', '.bin', 'depcruise');
    const run = spawnSync(cli, ['--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json', ...folders], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (!run.stdout) throw new Error(`dependency-cruiser printed nothing: ${run.stderr}`);
    const result = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
    return result.summary.violations.map((v) => `${v.rule.name} ${v.from} -> ${v.to}`).sort();
  } finally {
    removeDir(dir);
  }
}
