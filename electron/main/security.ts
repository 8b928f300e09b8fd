/** Hardening every web contents and the session: no new windows, no navigation away, no permissions. */
import type { Session, WebContents } from 'electron';
import { isTrustedUrl } from './sender-check.js';
import { CONTENT_SECURITY_POLICY, devContentSecurityPolicy } from './csp.js';

export function hardenContents(contents: WebContents, devServerUrl: string | null): void {
  // New windows (window.open, target=_blank) are refused; nothing is ever handed to shell.openExternal.
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (!isTrustedUrl(url, devServerUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isTrustedUrl(url, devServerUrl)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame || !isTrustedUrl(event.url, devServerUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

function isOwnBlob(url: string, devServerUrl: string | null): boolean {
  return url.startsWith('blob:') && isTrustedUrl(url.slice('blob:'.length), devServerUrl);
}

export function hardenSession(session: Session, devServerUrl: string | null): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  // The only download is a file the page itself made (the takings CSV, a blob: URL of our origin),
  // saved where the owner chooses in the save dialog. Anything else is cancelled.
  session.on('will-download', (event, item) => {
    if (!isOwnBlob(item.getURL(), devServerUrl)) {
      event.preventDefault();
      return;
    }
    item.setSaveDialogOptions({ title: 'Save takings', defaultPath: item.getFilename(), filters: [{ name: 'CSV', extensions: ['csv'] }] });
  });
  // CSP on every response, including the dev server's pages.
  session.webRequest.onHeadersReceived((details, callback) => {
    const csp = devServerUrl && details.url.startsWith(devServerUrl) ? devContentSecurityPolicy(devServerUrl) : CONTENT_SECURITY_POLICY;
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
  // Only our own scheme and the local dev server are ever fetched by the renderer.
  session.webRequest.onBeforeRequest((details, callback) => {
    const ok =
      details.url.startsWith('app://momo/') ||
      isOwnBlob(details.url, devServerUrl) ||
      details.url.startsWith('data:') ||
      details.url.startsWith('devtools://') ||
      (devServerUrl !== null && (details.url.startsWith(devServerUrl) || details.url.startsWith(devServerUrl.replace(/^http/, 'ws'))));
    callback({ cancel: !ok });
  });
}
