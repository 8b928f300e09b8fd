/**
 * The Electron binary, for `npm start` (scripts/start.mjs) and the Electron tests (test/electron):
 * where it is, and the one message that says what to do when it is missing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
export const electronDir = join(root, 'node_modules', 'electron');
export const electronVersion = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')).version;
const RELEASES = 'https://github.com/electron/electron/releases/download/';

/** The Electron executable, found WITHOUT require('electron') (which would try to download it). */
export function electronBinary() {
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

/** The cache folder of @electron/get (env-paths' user cache for "electron", or $electron_config_cache). */
function cacheRoot(env, platform) {
  if (env.electron_config_cache) return env.electron_config_cache;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'electron');
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'electron', 'Cache');
  return join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'electron');
}

/**
 * Where @electron/get looks for the release zip before downloading it: the cache folder, then a
 * folder named by the SHA-256 of the download URL's folder (so a zip placed there installs offline).
 */
export function electronZipInCache({ env = process.env, platform = process.platform, arch = process.arch } = {}) {
  const zip = `electron-v${electronVersion}-${platform}-${arch}.zip`;
  const mirror = env.ELECTRON_MIRROR ?? RELEASES;
  const folder = createHash('sha256').update(`${mirror}v${electronVersion}`).digest('hex');
  return { zip, path: join(cacheRoot(env, platform), folder, zip), url: `${RELEASES}v${electronVersion}/${zip}` };
}

/** What to do when the binary is missing: every route ends in `npm start`, which installs it. */
export function missingElectronMessage(reason) {
  const { zip, path, url } = electronZipInCache({ env: { ...process.env, ELECTRON_MIRROR: undefined } });
  return [
    `the Electron ${electronVersion} binary is not installed${reason ? ` (its download failed: ${reason})` : ''}.`,
    'Launching the app needs it, once; the tests, the relay and the sandbox run without it.',
    'Install it with `npm start`:',
    '  - with internet access, as is;',
    '  - through a mirror you can reach:  ELECTRON_MIRROR=https://npmmirror.com/mirrors/electron/ npm start',
    `  - offline: first copy ${zip}`,
    `      (from ${url})`,
    '    to',
    `      ${path}`,
  ].join('\n');
}
