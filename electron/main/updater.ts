/**
 * The app's own updater: electron-updater, in an app installed from a momo-till installer whose build named
 * an update feed (scripts/package.mjs writes it into resources/app-update.yml). Anything else (a copy run
 * from source, an installer built without a feed) has none, and the owner is told updates are off.
 * When to download and install is decided in the core (electron/core/updates), not here.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TillCoreOptions } from '../core/index.js';

type Updater = NonNullable<TillCoreOptions['updater']>;

export async function appUpdater(isPackaged: boolean, resourcesPath: string): Promise<Updater | undefined> {
  if (!isPackaged || !existsSync(join(resourcesPath, 'app-update.yml'))) return undefined;
  const { default: updater } = await import('electron-updater');
  // Its own log would go to the console; the core logs what matters to the owner's data folder.
  updater.autoUpdater.logger = null;
  return updater.autoUpdater;
}
