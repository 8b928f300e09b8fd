/**
 * The packaged app, built as `npm run package` builds it (scripts/package.mjs: a staging copy, then
 * electron-builder with electron-builder.yml) for Linux: the unpacked app (`--linux dir`) and the deb, once,
 * then inspected. What cannot be downloaded here is replaced by a stand-in named as such (./stand-ins.ts):
 * the Electron binary (unless the real one is installed) and fpm. What only the real tools can prove is
 * skipped by name: the AppImage, the native addons built for Electron's ABI, and launching the packaged app.
 * The build's output is served on loopback as the update feed, which electron-updater's own code reads
 * under plain Node (./update-feed.ts: a stand-in app adapter and HTTP executor).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { listPackage, statFile } from '@electron/asar';
import FpmTarget from 'app-builder-lib/out/targets/FpmTarget.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { electronBinary, electronVersion } from '../../../scripts/electron-binary.mjs';
import { makeStandInElectron, makeStandInFpm, readFuses } from './stand-ins.js';
import { checkAndDownload, serveFeed, type Feed } from './update-feed.js';

const root = join(import.meta.dirname, '..', '..', '..');
const realElectron = electronBinary();
const work = mkdtempSync(join(tmpdir(), 'momo-package-'));
const output = join(work, 'dist');
const app = join(output, 'linux-unpacked');
const asarPath = join(app, 'resources', 'app.asar');
const fpmArgs = join(work, 'fpm-args.txt');
const nodeSqlite = join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
/** The project's address for the deb, given at packing (package.json holds none). */
const HOMEPAGE = 'https://example.org/momo-till-packaging-test';
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Every package the app loads at run time (out/main's imports and what they import), and nothing else. */
const RUNTIME_PACKAGES = [
  '@canvas/image-data',
  '@napi-rs/keyring',
  `@napi-rs/keyring-linux-${process.arch}-gnu`,
  '@point-of-sale/codepage-encoder',
  '@point-of-sale/receipt-printer-encoder',
  'argparse',
  'better-sqlite3',
  'bindings',
  'builder-util-runtime',
  'canvas-dither',
  'canvas-flatten',
  'debug',
  'electron-updater',
  'file-uri-to-path',
  'fs-extra',
  'graceful-fs',
  'js-yaml',
  'jsonfile',
  'lazy-val',
  'libphonenumber-js',
  'lodash.escaperegexp',
  'lodash.isequal',
  'ms',
  'resize-image-data',
  'sax',
  'tiny-typed-emitter',
  'ulid',
  'undici',
  'universalify',
  'zod',
].sort();

let before = '';
let build: ReturnType<typeof spawnSync>;
/** The release's folder (the build's output) served on loopback: the feed written into the app. */
let feed: Feed;
beforeAll(async () => {
  before = sha256(nodeSqlite);
  feed = await serveFeed(output);
  const electronDist = realElectron
    ? join(root, 'node_modules', 'electron', 'dist')
    : makeStandInElectron(join(work, 'electron'), electronVersion);
  build = spawnSync(
    process.execPath,
    [
      'scripts/package.mjs',
      '--linux',
      'dir',
      'deb',
      `-c.electronDist=${electronDist}`,
      // Rebuilding for Electron needs its headers or a prebuilt addon from the internet: only with the real binary.
      `-c.npmRebuild=${realElectron ? 'true' : 'false'}`,
      `-c.directories.output=${output}`,
    ],
    {
      cwd: root,
      encoding: 'utf8',
      env: {
        ...process.env,
        // The tests run after `electron-vite build` (npm test builds first); a missing build is made.
        MOMO_SKIP_BUILD: existsSync(join(root, 'out', 'main', 'index.js')) ? '1' : '',
        MOMO_PACKAGE_STAGING: join(work, 'staging'),
        CUSTOM_FPM_PATH: makeStandInFpm(join(work, 'fpm'), fpmArgs),
        MOMO_UPDATE_URL: feed.url,
        MOMO_UPDATE_GITHUB: '',
        MOMO_HOMEPAGE: HOMEPAGE,
      },
    },
  );
}, 180_000);
afterAll(async () => {
  await new Promise((ok) => feed?.server.close(ok));
  rmSync(work, { recursive: true, force: true });
});

describe('npm run package, for Linux (scripts/package.mjs + electron-builder)', () => {
  it('packs the unpacked app and the deb from a staging copy, leaving the Node tests’ better-sqlite3 as it was', () => {
    expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);
    expect(existsSync(join(app, 'momo-till'))).toBe(true);
    expect(existsSync(join(output, 'momo-till_0.1.0_amd64.deb'))).toBe(true);
    expect(sha256(nodeSqlite)).toBe(before);
  });

  it('the deb depends on electron-builder’s own defaults plus a Secret Service provider for the keychain', () => {
    const args = readFileSync(fpmArgs, 'utf8').split('\n');
    const depends = args.flatMap((a, i) => (a === '-d' ? [args[i + 1]] : []));
    const defaults = (FpmTarget.prototype as unknown as { getDefaultDepends(t: string): string[] }).getDefaultDepends('deb');
    expect(defaults).toContain('libnss3');
    expect(depends).toEqual([...defaults, 'gnome-keyring | libkf5wallet-bin | keepassxc']);
    expect(depends.join(',')).not.toContain('kwalletmanager');
    expect(args[args.indexOf('--url') + 1]).toBe(HOMEPAGE);
  });

  it('writes the update feed into the app, where electron-updater reads it', () => {
    const written = readFileSync(join(app, 'resources', 'app-update.yml'), 'utf8');
    expect(written).toMatch(/^provider: generic$/m);
    expect(written).toContain(`url: ${feed.url}`);
  });

  it('an installed older till finds the release on the feed and electron-updater downloads it only when its sha512 matches the feed’s', async () => {
    const list = readFileSync(join(output, 'latest-linux.yml'), 'utf8');
    const deb = readFileSync(join(output, 'momo-till_0.1.0_amd64.deb'));
    const published = createHash('sha512').update(deb).digest('base64');
    expect(list).toMatch(/^version: 0\.1\.0$/m);
    expect(list).toContain(`sha512: ${published}`);
    const appUpdateYml = join(app, 'resources', 'app-update.yml');
    const fetched = await checkAndDownload(appUpdateYml, join(work, 'updater-cache'), '0.0.9');
    expect(fetched.available).toBe(true);
    expect(fetched.info?.version).toBe('0.1.0');
    expect(fetched.files).toHaveLength(1);
    expect(readFileSync(fetched.files[0] as string).equals(deb)).toBe(true);
    // The same version is no update; a deb changed on its way (or on the server) is refused.
    expect((await checkAndDownload(appUpdateYml, join(work, 'updater-same'), '0.1.0')).available).toBe(false);
    feed.tamper('momo-till_0.1.0_amd64.deb');
    await expect(checkAndDownload(appUpdateYml, join(work, 'updater-tampered'), '0.0.9')).rejects.toThrow(/sha512 checksum mismatch/);
    feed.tamper(null);
  });

  it.skip('the AppImage (electron-builder downloads appimagetool from GitHub: built by the release workflow)', () => {});

  it('the asar holds the built app and exactly the packages it loads: no dev dependencies, tests, maps, types or native sources', () => {
    const files = listPackage(asarPath, { isPack: false }).map((f) => f.replaceAll('\\', '/'));
    const packages = new Set(files.flatMap((f) => /^\/node_modules\/((?:@[^/]+\/)?[^/@][^/]*)\//.exec(f)?.[1] ?? []));
    expect([...packages].sort()).toEqual(RUNTIME_PACKAGES);
    expect(files.filter((f) => !f.startsWith('/node_modules/')).filter((f) => /\.\w+$/.test(f))).toEqual(
      expect.arrayContaining(['/package.json', '/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html']),
    );
    const unwanted = files.filter((f) =>
      /\.map$|\.[cm]?ts$|\/(test|tests|__tests__)\/|\.(c|cc|cpp|h|gyp|gypi|mk|a|o)$|\/better-sqlite3\/(src|deps)\/|test_extension|prebuild-install/.test(
        f,
      ),
    );
    expect(unwanted).toEqual([]);
    expect(files.some((f) => /\/renderer\/assets\/index-[\w-]+\.js$/.test(f))).toBe(true);
  });

  it('the native addons are unpacked beside the asar, where Electron can load them', () => {
    const addons = [
      '/node_modules/better-sqlite3/build/Release/better_sqlite3.node',
      `/node_modules/@napi-rs/keyring-linux-${process.arch}-gnu/keyring.linux-${process.arch}-gnu.node`,
    ];
    for (const addon of addons) {
      expect(existsSync(join(app, 'resources', 'app.asar.unpacked', addon))).toBe(true);
      expect(statFile(asarPath, addon.slice(1))).toMatchObject({ unpacked: true });
    }
  });

  it.skipIf(!realElectron)('better-sqlite3 is built for Electron’s ABI (skipped without the real Electron binary)', () => {
    const abi = readFileSync(join(root, 'node_modules', 'electron', 'abi_version'), 'utf8').trim();
    const addon = readFileSync(
      join(app, 'resources', 'app.asar.unpacked', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'),
    );
    expect(addon.includes(`node_register_module_v${abi}`)).toBe(true);
  });

  it('the fuses of electron-builder.yml are flipped in the packaged binary (read back)', () => {
    expect(readFuses(readFileSync(join(app, 'momo-till')))).toEqual({
      RunAsNode: false,
      EnableCookieEncryption: true,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
      EnableEmbeddedAsarIntegrityValidation: true,
      OnlyLoadAppFromAsar: true,
      LoadBrowserProcessSpecificV8Snapshot: false,
      GrantFileProtocolExtraPrivileges: false,
    });
  });

  it('reports the app’s size in the installer, and keeps it under its budget', () => {
    const sizeOf = (dir: string): number =>
      readdirSync(dir, { withFileTypes: true }).reduce(
        (sum, e) => sum + (e.isDirectory() ? sizeOf(join(dir, e.name)) : statSync(join(dir, e.name)).size),
        0,
      );
    const asar = statSync(asarPath).size;
    const unpacked = sizeOf(join(app, 'resources', 'app.asar.unpacked'));
    const compressed = gzipSync(readFileSync(asarPath)).length;
    const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
    console.log(`[packaging] app.asar ${mb(asar)} (${mb(compressed)} gzipped), app.asar.unpacked ${mb(unpacked)}; plus Electron itself`);
    // Before react, recharts, qrcode, pg and prom-client left the runtime dependencies, the asar was about 26 MB.
    expect(asar).toBeLessThan(13e6);
  });

  it.skipIf(!realElectron)('the packaged app launches to its first screen (skipped without the real Electron binary)', async () => {
    const { _electron } = await import('playwright-core');
    const home = join(work, 'home');
    const launched = await _electron.launch({
      executablePath: join(app, 'momo-till'),
      args: ['--no-sandbox'],
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') } as Record<string, string>,
    });
    try {
      const window = await launched.firstWindow();
      await expect.poll(() => window.title()).toBe('momo-till');
    } finally {
      await launched.close();
    }
  });
});
