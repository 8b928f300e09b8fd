/**
 * npm run build:relay: the relay as plain JavaScript, relay/dist/cli.js and its chunks in
 * relay/dist/chunks/, run by `node` with no TypeScript loader, installable on its own from
 * relay/package.json (`npm pack ./relay`).
 *
 * esbuild (already here as tsx's and vite's compiler) bundles relay/ and the shared/ code it uses into
 * ES modules, split where relay/cli/main.ts imports a family of commands when it runs: a `merchant list`
 * loads pg and the PostgreSQL commands, not the server's HTTP stack, prom-client or better-sqlite3
 * (a CLI call under 300 ms: bench/targets.json). Our own modules are declared free of side effects at import
 * (none runs anything at load but the entry point), so a chunk holds only the modules whose exports it
 * uses, not every file behind an index.ts it imports from. Every npm package stays external, installed from relay/package.json's dependencies,
 * so `npm audit` and updates still see them and better-sqlite3's native addon is built for the host.
 * The build refuses to finish if the bundle imports a package relay/package.json does not list, or
 * lists one at another version range than the root package.json (one set of versions for both).
 *
 * Files the relay reads at run time beside its own module (RUNTIME_FILES) are copied where the bundle
 * looks for them: a bundled module's `import.meta.url` is relay/dist/<family>.js, so
 * `new URL('./page/', import.meta.url)` in relay/http/owner/page.ts becomes relay/dist/page/.
 */
import { chmodSync, cpSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { build } from 'esbuild';

const root = JSON.parse(readFileSync('package.json', 'utf8'));
const relay = JSON.parse(readFileSync('relay/package.json', 'utf8'));
const deps = Object.keys(relay.dependencies);
// The root's `dependencies` are what the packaged till ships; a package only the relay loads (pg, prom-client)
// is a root devDependency, installed for the tests and `npm run relay`, never put in the installer.
const rootRange = (p) => root.dependencies[p] ?? root.devDependencies[p];

/**
 * Our files (not packages) have no side effects at import, so a bundle leaves out every module it does
 * not use, even behind an index.ts it imports from. (esbuild ignores this under code splitting, which is
 * why the families are separate bundles rather than chunks of one.)
 */
const sideEffectFree = {
  name: 'side-effect-free-sources',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData?.again) return undefined;
      // cli.js loads each family of commands when it runs: they stay separate files.
      if (args.kind === 'dynamic-import' && FAMILIES.some((f) => args.path === `./${f}.js`)) return { path: args.path, external: true };
      const resolved = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: { again: true },
      });
      if (resolved.errors.length > 0 || resolved.external) return resolved;
      return { path: resolved.path, namespace: resolved.namespace, sideEffects: false };
    });
  },
};

/** What relay/cli/main.ts imports when it runs (relay/cli/<family>.ts, built to relay/dist/<family>.js). */
const FAMILIES = ['serve', 'pg-commands', 'pg-list-commands', 'sqlite-commands', 'owner-link-commands'];

rmSync('relay/dist', { recursive: true, force: true });
const result = await build({
  entryPoints: ['relay/cli.ts', ...FAMILIES.map((f) => `relay/cli/${f}.ts`)],
  outdir: 'relay/dist',
  entryNames: '[name]',
  plugins: [sideEffectFree],
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
    .filter((i) => i.external && !builtins.has(i.path) && !i.path.startsWith('.'))
    .map((i) => packageOf(i.path)),
);
const problems = [
  ...[...imported].filter((p) => !deps.includes(p)).map((p) => `the relay imports ${p}, missing from relay/package.json dependencies`),
  ...deps.filter((p) => !imported.has(p)).map((p) => `relay/package.json lists ${p}, which the relay does not import`),
  ...deps
    .filter((p) => rootRange(p) !== relay.dependencies[p])
    .map((p) => `${p}: relay/package.json has ${relay.dependencies[p]}, package.json has ${rootRange(p) ?? 'nothing'}`),
];
if (problems.length > 0) {
  console.error(`build:relay: ${problems.join('; ')}`);
  process.exit(1);
}
/** [source folder, folder in relay/dist/, the files that must be there]: what the relay reads by path at run time. */
const RUNTIME_FILES = [['relay/http/owner/page', 'page', ['index.html', 'app.js', 'app.css']]];
for (const [from, to, files] of RUNTIME_FILES) {
  cpSync(from, `relay/dist/${to}`, { recursive: true });
  const missing = files.filter((f) => !existsSync(`relay/dist/${to}/${f}`));
  if (missing.length > 0) {
    console.error(`build:relay: relay/dist/${to}/ lacks ${missing.join(', ')}`);
    process.exit(1);
  }
}
chmodSync('relay/dist/cli.js', 0o755);
const kb = (file) => `${(statSync(file).size / 1024).toFixed(0)} KiB`;
const families = FAMILIES.map((f) => `${f}.js ${kb(`relay/dist/${f}.js`)}`).join(', ');
console.log(`relay/dist/cli.js (${kb('relay/dist/cli.js')}; ${families}), external: ${[...imported].sort().join(', ')}`);
