/**
 * Which renderer may call the core: only the top frame of our own window, showing a page of our
 * own origin (`app://momo`, or the electron-vite dev server while developing). Pure: no Electron
 * import, so it is unit-tested in Node.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'momo';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

export type SenderFrameLike = { url: string; parent: unknown | null } | null | undefined;

export function isTrustedUrl(url: string | null | undefined, devServerUrl: string | null): boolean {
  if (!url) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && !parsed.username && !parsed.password) return true;
  if (devServerUrl) {
    try {
      return (
        parsed.origin === new URL(devServerUrl).origin &&
        /^https?:$/.test(parsed.protocol) &&
        ['localhost', '127.0.0.1'].includes(parsed.hostname)
      );
    } catch {
      return false;
    }
  }
  return false;
}

/** A null frame (destroyed or navigated away) and any subframe are refused. */
export function isTrustedSender(frame: SenderFrameLike, devServerUrl: string | null): boolean {
  if (!frame || frame.parent) return false;
  return isTrustedUrl(frame.url, devServerUrl);
}
