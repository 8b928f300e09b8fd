/**
 * Whether the real app can be launched here: the Electron binary (found without require('electron'),
 * which would try to download it), the electron-vite build, and the better-sqlite3 copy built for
 * Electron by `npm start`. When something is missing the tests are skipped BY NAME with the reason.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { _electron, type ElectronApplication } from 'playwright-core';
import { electronBinary, missingElectronMessage } from '../../scripts/electron-binary.mjs';

const root = join(import.meta.dirname, '..', '..');

function sqliteForElectron(): string | null {
  const cache = join(root, 'node_modules', '.cache', 'momo-till');
  if (!existsSync(cache)) return null;
  for (const name of readdirSync(cache)) {
    const binding = join(cache, name, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    if (existsSync(binding)) return binding;
  }
  return null;
}

export const electronPath = electronBinary();
export const sqliteBinding = sqliteForElectron();
export const appRoot = root;
const built = existsSync(join(root, 'out', 'main', 'index.js')) && existsSync(join(root, 'out', 'preload', 'index.cjs'));

export const skipReason = !electronPath
  ? 'the Electron binary is not installed (`npm start` installs it)'
  : !sqliteBinding
    ? 'better-sqlite3 has not been built for Electron yet (run `npm start` once)'
    : !built
      ? 'the app is not built (run `npm run build`)'
      : null;
export const canLaunch = skipReason === null;
if (!canLaunch) console.warn(`[test/electron] skipped: ${electronPath ? skipReason : missingElectronMessage()}`);

/** The real app on a fresh data folder under `home` (the tests remove `home` afterwards). */
export function launchApp(home: string): Promise<ElectronApplication> {
  return _electron.launch({
    executablePath: electronPath as string,
    args: [appRoot, '--no-sandbox'],
    cwd: appRoot,
    env: { ...process.env, MOMO_DATA_DIR: join(home, 'data'), MOMO_SQLITE_BINDING: sqliteBinding ?? '' } as Record<string, string>,
  });
}
