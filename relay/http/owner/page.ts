/**
 * The owner's phone page, served by the relay itself: one HTML file, one script, one stylesheet from
 * relay/http/owner/page/, nothing from another site. Every answer carries a strict
 * Content-Security-Policy (no inline script or style, no framing) and `Referrer-Policy: no-referrer`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sendError } from '../../../shared/http-util.js';

export const OWNER_PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors 'none'";

const FILES: Record<string, { file: string; type: string }> = {
  '/owner': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/owner/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/owner/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

/** Each route as `METHOD /path` (relay/docs/http-api.md lists every one; HEAD and `/owner/` are answered too). */
export const OWNER_PAGE_ROUTES: readonly string[] = Object.keys(FILES).map((path) => `GET ${path}`);

const folder = new URL('./page/', import.meta.url);
const cache = new Map<string, Buffer>();

function content(file: string): Buffer {
  let body = cache.get(file);
  if (!body) cache.set(file, (body = readFileSync(fileURLToPath(new URL(file, folder)))));
  return body;
}

/** Serves the page's own files; false when the path is not one of them. */
export function handleOwnerPage(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
  const entry = FILES[url.pathname === '/owner/' ? '/owner' : url.pathname];
  if (!entry) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendError(res, 405, 'VALIDATION_ERROR', 'Only GET is allowed here', { allow: 'GET' });
    return true;
  }
  const body = content(entry.file);
  res.writeHead(200, {
    'content-type': entry.type,
    'content-length': body.length,
    'content-security-policy': OWNER_PAGE_CSP,
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
