/**
 * The data folder the desktop app uses, found without Electron: Electron's `app.getPath('userData')`
 * is `<appData>/<app name>`, the app name being package.json's name (no productName is set), and
 * appData is per OS. The keychain's service name is derived from this folder by the core, so the same
 * folder means the same till: the same database, settings and keychain entries in either shell.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_NAME = 'momo-till';

/** Electron's appData: %APPDATA% on Windows, ~/Library/Application Support on macOS, $XDG_CONFIG_HOME or ~/.config elsewhere. */
export function appDataDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  if (platform === 'win32') return env.APPDATA ?? join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support');
  return env.XDG_CONFIG_HOME ?? join(home, '.config');
}

/** As electron/main: MOMO_DATA_DIR when set (development and tests), else the desktop app's userData. */
export function desktopDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
): string {
  return env.MOMO_DATA_DIR || join(appDataDir(env, platform, home), APP_NAME);
}
