#!/usr/bin/env node
/**
 * `npm run package`: the installers of THIS machine's OS (electron-builder builds for the host only; the
 * release workflow, .github/workflows/release.yml, builds each OS's on that OS).
 *
 * electron-builder rebuilds native addons (better-sqlite3) for Electron inside the app folder it packs. Packed
 * from the repository, that would replace the Node build the tests and servers use; so the app is packed
 * from a staging copy: package.json, the built out/, resources/ and only the production packages of
 * node_modules (those package-lock.json does not mark dev), copied from the repository's node_modules.
 *
 *   npm run package                              build, then the installers in dist/
 *   npm run package -- --linux dir               any electron-builder arguments, e.g. the unpacked app only
 *   MOMO_SKIP_BUILD=1                            pack the last electron-vite build
 *   MOMO_PACKAGE_STAGING=<folder>                where the staging copy goes (default: node_modules/.cache/momo-till/package-app)
 *   MOMO_HOMEPAGE=<https address>                the project's address the deb carries (default: MOMO_UPDATE_GITHUB's repository)
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

function fail(message) {
  console.error(`\nmomo-till package: ${message}\n`);
  process.exit(1);
}

/** The production packages of the lock file that this machine installed (other OSes' optional binaries are absent). */
export function productionPackages(lock, installed) {
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path.startsWith('node_modules/') && !entry.dev && !entry.link)
    .map(([path]) => path)
    .filter((path) => installed(path));
}

/** Copies package.json, out/, resources/ and the production node_modules into `staging`. */
export function stage(staging) {
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) cpSync(join(root, file), join(staging, file));
  for (const folder of ['out', 'resources']) cpSync(join(root, folder), join(staging, folder), { recursive: true });
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  for (const path of productionPackages(lock, (p) => existsSync(join(root, p, 'package.json')))) {
    const from = join(root, path);
    // A package's own nested node_modules are separate lock entries, copied (or not) on their own.
    // Of a native addon's build folder only the addon itself: its objects and makefiles are 20 MB nothing loads.
    const build = existsSync(join(from, 'binding.gyp')) ? join(from, 'build') : null;
    const wanted = (src) =>
      src === from ||
      (!src.startsWith(join(from, 'node_modules')) &&
        (build === null ||
          !src.startsWith(build) ||
          src === build ||
          src === join(build, 'Release') ||
          /[\\/]build[\\/]Release[\\/][^\\/]+\.node$/.test(src)));
    cpSync(from, join(staging, path), { recursive: true, filter: wanted });
  }
}

/**
 * Where installed tills look for updates, written into the app (resources/app-update.yml) when it is packed:
 * MOMO_UPDATE_URL, a generic HTTPS folder holding the installers and electron-builder's latest*.yml; or
 * MOMO_UPDATE_GITHUB=owner/repo, that repository's GitHub releases. Neither: the app has no feed and
 * says updates are off.
 */
export function publishArgs(env) {
  if (env.MOMO_UPDATE_URL && env.MOMO_UPDATE_GITHUB) throw new Error('set MOMO_UPDATE_URL or MOMO_UPDATE_GITHUB, not both');
  if (env.MOMO_UPDATE_URL) {
    const url = new URL(env.MOMO_UPDATE_URL);
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    // electron-updater trusts the feed's latest*.yml for the sha512 it checks: it must come over TLS.
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
      throw new Error(`MOMO_UPDATE_URL must be https:// (http only on loopback, for tests): ${env.MOMO_UPDATE_URL}`);
    return ['-c.publish.provider=generic', `-c.publish.url=${url.href}`];
  }
  if (env.MOMO_UPDATE_GITHUB) {
    const match = /^([\w.-]+)\/([\w.-]+)$/.exec(env.MOMO_UPDATE_GITHUB);
    if (!match) throw new Error(`MOMO_UPDATE_GITHUB must be owner/repo: ${env.MOMO_UPDATE_GITHUB}`);
    return ['-c.publish.provider=github', `-c.publish.owner=${match[1]}`, `-c.publish.repo=${match[2]}`];
  }
  return [];
}

/**
 * The project's address, which the deb carries (electron-builder refuses a deb without one): MOMO_HOMEPAGE, else
 * the GitHub repository of MOMO_UPDATE_GITHUB. package.json holds none, as no address is known to be the project's.
 */
export function homepageArgs(env) {
  const url = env.MOMO_HOMEPAGE || (env.MOMO_UPDATE_GITHUB ? `https://github.com/${env.MOMO_UPDATE_GITHUB}` : '');
  if (!url) return [];
  if (!/^https?:\/\/\S+$/.test(url)) throw new Error(`MOMO_HOMEPAGE must be an http(s) address: ${url}`);
  return [`-c.extraMetadata.homepage=${url}`];
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  let feed;
  let homepage;
  try {
    feed = publishArgs(process.env);
    homepage = homepageArgs(process.env);
  } catch (error) {
    fail(error.message);
  }
  if (feed.length === 0)
    console.log('momo-till package: no MOMO_UPDATE_URL or MOMO_UPDATE_GITHUB: these installers will not update themselves');
  if (!process.env.MOMO_SKIP_BUILD) {
    const built = spawnSync(bin('electron-vite'), ['build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
    if (built.status !== 0) fail('electron-vite build failed (see above)');
  }
  if (!existsSync(join(root, 'out', 'main', 'index.js'))) fail('out/main/index.js is missing: run electron-vite build first');
  const staging = resolve(process.env.MOMO_PACKAGE_STAGING ?? join(root, 'node_modules', '.cache', 'momo-till', 'package-app'));
  stage(staging);
  const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  const builderArgs = [
    '--projectDir',
    staging,
    '--config',
    join(root, 'electron-builder.yml'),
    // The staging copy has no node_modules/electron to read the version from.
    `-c.electronVersion=${electronVersion}`,
    ...(args.some((a) => a.includes('directories.output')) ? [] : [`-c.directories.output=${join(root, 'dist')}`]),
    ...feed,
    ...homepage,
    ...args,
  ];
  const packed = spawnSync(bin('electron-builder'), builderArgs, { cwd: staging, stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(packed.status ?? 1);
}
