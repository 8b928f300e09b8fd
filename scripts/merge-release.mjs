#!/usr/bin/env node
/**
 * The release workflow's last step (.github/workflows/release.yml): `node scripts/merge-release.mjs <artifacts> <release>`
 * copies every build's files from <artifacts>/<job>/ into one <release>/ folder. Each Mac build (one per arch)
 * wrote its own latest-mac.yml; electron-updater on a Mac picks its arch's zip from ONE latest-mac.yml, so
 * their `files:` lists are joined into one (the first file's version, path and sha512 are kept: they name an
 * arm64 or x64 zip, and the updater reads `files`).
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The `files:` entries of a latest*.yml, as the lines electron-builder wrote them. */
function fileEntries(yml) {
  const lines = yml.split('\n');
  const start = lines.indexOf('files:');
  if (start < 0) throw new Error('no files: list in latest-mac.yml');
  const end = lines.findIndex((line, i) => i > start && /^\S/.test(line));
  return lines.slice(start + 1, end < 0 ? lines.length : end);
}

/** One latest-mac.yml from several: the first one, with every file entry of all of them. */
export function mergeLatestMac(ymls) {
  if (ymls.length === 1) return ymls[0];
  const versions = new Set(ymls.map((y) => /^version: (.+)$/m.exec(y)?.[1]));
  if (versions.size !== 1) throw new Error(`the Mac builds are of different versions: ${[...versions].join(', ')}`);
  const lines = ymls[0].split('\n');
  const start = lines.indexOf('files:');
  const own = fileEntries(ymls[0]);
  const merged = ymls.flatMap(fileEntries);
  return [...lines.slice(0, start + 1), ...merged, ...lines.slice(start + 1 + own.length)].join('\n');
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const [artifacts, release] = process.argv.slice(2);
  if (!artifacts || !release) {
    console.error('usage: node scripts/merge-release.mjs <artifacts folder> <release folder>');
    process.exit(1);
  }
  mkdirSync(release, { recursive: true });
  const macYmls = [];
  for (const job of readdirSync(artifacts)) {
    for (const file of readdirSync(join(artifacts, job))) {
      const path = join(artifacts, job, file);
      if (!statSync(path).isFile()) continue;
      if (file === 'latest-mac.yml') macYmls.push(readFileSync(path, 'utf8'));
      else copyFileSync(path, join(release, basename(file)));
    }
  }
  if (macYmls.length > 0) writeFileSync(join(release, 'latest-mac.yml'), mergeLatestMac(macYmls));
  console.log(`release/: ${readdirSync(release).length} files (${macYmls.length} Mac update lists joined)`);
}
