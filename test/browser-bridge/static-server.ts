/**
 * Serves the built renderer (out/renderer) on 127.0.0.1 for the browser tests. Read-only, no directory
 * listings, no path escapes; sends the same Content-Security-Policy the app's protocol handler sends so
 * a CSP violation fails here as it would in the app.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import { CONTENT_SECURITY_POLICY } from '../../electron/main/csp.js';

/** The very policy the app serves on app://momo (a looser copy here could hide a violation the app would hit). */
export const RENDERER_CSP = CONTENT_SECURITY_POLICY;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

export type StaticServer = { url: string; close(): Promise<void> };

export async function serveRenderer(root: string): Promise<StaticServer> {
  const base = resolve(root);
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    const file = normalize(join(base, path === '/' ? 'index.html' : path));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) => {
        res.writeHead(200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'content-security-policy': RENDERER_CSP,
          'cache-control': 'no-store',
        });
        res.end(body);
      },
      () => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'),
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
