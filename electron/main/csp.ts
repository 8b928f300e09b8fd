/** The Content-Security-Policy of every page of the app. No inline script, no eval, no remote anything. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "media-src 'none'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** While developing with the electron-vite dev server: its HMR needs inline styles and a websocket. */
export function devContentSecurityPolicy(devServerUrl: string): string {
  const origin = new URL(devServerUrl).origin;
  const ws = origin.replace(/^http/, 'ws');
  return CONTENT_SECURITY_POLICY.replace("script-src 'self'", `script-src 'self' ${origin}`)
    .replace("style-src 'self'", `style-src 'self' 'unsafe-inline' ${origin}`)
    .replace("connect-src 'self'", `connect-src 'self' ${origin} ${ws}`);
}
