/**
 * Opens the till's launch link: in Chromium, Chrome or Edge as an app window (`--app`) with a profile
 * of its own in the data folder (no extensions, no cookies shared with the user's browsing), else in
 * the system browser. On Linux without a display nothing can open: the caller prints the link.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const LINUX_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge', 'microsoft-edge-stable'];

function candidates(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  if (platform === 'darwin') {
    return ['Google Chrome', 'Chromium', 'Microsoft Edge'].map((app) => `/Applications/${app}.app/Contents/MacOS/${app}`);
  }
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)']].filter((r): r is string => Boolean(r));
    return roots.flatMap((root) => [
      join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'),
      join(root, 'Microsoft', 'Edge', 'Application', 'msedge.exe'),
    ]);
  }
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  return LINUX_NAMES.flatMap((name) => dirs.map((dir) => join(dir, name)));
}

export function findChromium(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | null {
  return candidates(env, platform).find((path) => existsSync(path)) ?? null;
}

export function hasDisplay(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  return platform !== 'linux' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

export function appWindowArgs(url: string, profileDir: string): string[] {
  return [`--app=${url}`, `--user-data-dir=${profileDir}`, '--no-first-run', '--no-default-browser-check', '--disable-extensions'];
}

/** The browser process we started (ended with the till), or null when the system opener was used. */
export function openBrowser(url: string, dataDir: string): ChildProcess | null {
  const chromium = findChromium();
  if (chromium) {
    const profile = join(dataDir, 'browser-profile');
    mkdirSync(profile, { recursive: true, mode: 0o700 });
    const child = spawn(chromium, appWindowArgs(url, profile), { stdio: 'ignore' });
    child.on('error', () => undefined);
    return child;
  }
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  const opener = spawn(command, args, { stdio: 'ignore', detached: true });
  opener.on('error', () => undefined);
  opener.unref();
  return null;
}
