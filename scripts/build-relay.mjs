/**
 * npm run build:relay: the relay as one plain JavaScript file, relay/dist/cli.js, run by `node` with no
 * TypeScript loader, installable on its own from relay/package.json (`npm pack ./relay`).
 *
 * esbuild (already here as tsx's and vite's compiler) bundles relay/ and the shared/ code it uses into
 * one ES module; every npm package stays external, installed from relay/package.json's dependencies,
 * so `npm audit` and updates still see them and better-sqlite3's native addon is built for the host.
 * The build refuses to finish if the bundle imports a package relay/package.json does not list, or
 * lists one at another version range than the root package.json (one set of versions for both).
 */
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { build } from 'esbuild';

const root = JSON.parse(readFileSync('package.json', 'utf8'));
const relay = JSON.parse(readFileSync('relay/package.json', 'utf8'));
const deps = Object.keys(relay.dependencies);

const result = await build({
  entryPoints: ['relay/cli.ts'],
  outfile: 'relay/dist/cli.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  banner: { js: '#!/usr/bin/env node' },
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const packageOf = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
const imported = new Set(
  Object.values(result.metafile.outputs)
    .flatMap((o) => o.imports)
    .filter((i) => i.external && !builtins.has(i.path))
    .map((i) => packageOf(i.path)),
);
const problems = [
  ...[...imported].filter((p) => !deps.includes(p)).map((p) => `the relay imports ${p}, missing from relay/package.json dependencies`),
  ...deps.filter((p) => !imported.has(p)).map((p) => `relay/package.json lists ${p}, which the relay does not import`),
  ...deps
    .filter((p) => root.dependencies[p] !== relay.dependencies[p])
    .map((p) => `${p}: relay/package.json has ${relay.dependencies[p]}, package.json has ${root.dependencies[p] ?? 'nothing'}`),
];
if (problems.length > 0) {
  console.error(`build:relay: ${problems.join('; ')}`);
  process.exit(1);
}
chmodSync('relay/dist/cli.js', 0o755);
const kb = (statSync('relay/dist/cli.js').size / 1024).toFixed(0);
console.log(`relay/dist/cli.js (${kb} KiB), external: ${[...imported].sort().join(', ')}`);
