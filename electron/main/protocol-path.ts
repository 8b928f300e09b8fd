/**
 * Maps an `app://momo/<path>` request to a file inside the built renderer folder, refusing anything
 * that would leave it (`..`, encoded slashes, absolute paths, other hosts). Pure, unit-tested.
 */
import { extname, join, normalize, sep } from 'node:path';
import { APP_HOST, APP_SCHEME } from './sender-check.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** The file to serve, or null when the URL is not a safe path under `root`. */
export function resolveAppPath(requestUrl: string, root: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  return rendererFile(url.pathname, root)?.file ?? null;
}

/**
 * The file under `root` that a URL's (still encoded) pathname names, `/` being index.html, and whether it is
 * that page; null for anything that would leave the folder (`..`, encoded slashes or NULs, a bad escape).
 * Both shells serve the built renderer through it: Electron's app:// protocol and browser mode's server.
 */
export function rendererFile(pathname: string, root: string): { file: string; isIndex: boolean } | null {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\') || path.split('/').includes('..')) return null;
  if (path === '/' || path === '') path = '/index.html';
  const base = normalize(root.endsWith(sep) ? root : root + sep);
  const file = normalize(join(base, path));
  return file.startsWith(base) ? { file, isIndex: path === '/index.html' } : null;
}
