#!/usr/bin/env node
// `npm run screenshots [-- test/browser/<file>.test.ts ...]`: refreshes docs/screenshots/ on purpose.
// The browser tests always save their screenshots in the ignored test-results/screenshots/ (so a test
// run leaves `git status` clean); this script builds the renderer, runs the browser tests (all, or the
// files given) under the real keychain, and only if they pass copies every PNG they saved into
// docs/screenshots/. A new screenshot is one `screenshot(page, 'name')` call in a browser test.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const saved = join(root, 'test-results', 'screenshots'); // test/support/screenshots.ts names the same folder
const published = join(root, 'docs', 'screenshots');
const bin = (name) => join(root, 'node_modules', '.bin', name);

function run(command, args) {
  console.log(`\n=== ${command} ${args.join(' ')}`);
  return spawnSync(command, args, { cwd: root, stdio: 'inherit' }).status === 0;
}

rmSync(saved, { recursive: true, force: true }); // only this run's screenshots are published
const files = process.argv.slice(2);
const ok =
  run(bin('electron-vite'), ['build']) &&
  run(join(root, 'scripts', 'with-keyring.sh'), [bin('vitest'), 'run', '--project', 'browser', ...files]);
if (!ok) {
  console.error('\nscreenshots: the build or a browser test failed; docs/screenshots/ is left as it was.');
  process.exit(1);
}

const pngs = existsSync(saved) ? readdirSync(saved).filter((f) => f.endsWith('.png')) : [];
mkdirSync(published, { recursive: true });
for (const png of pngs) copyFileSync(join(saved, png), join(published, png));
console.log(`\nscreenshots: ${pngs.length} copied to docs/screenshots/ (review with git diff, then commit).`);
const unwritten = readdirSync(published).filter((f) => f.endsWith('.png') && !pngs.includes(f));
if (files.length === 0 && unwritten.length > 0)
  console.warn(`screenshots: no test wrote ${unwritten.join(', ')}; delete them if nothing shows them.`);
