/** The built renderer's files (out/renderer), read-only: no listings, nothing outside the folder. */
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

export type Asset = { body: Buffer; type: string; isIndex: boolean };

export async function readAsset(rendererDir: string, pathname: string): Promise<Asset | null> {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\') || path.split('/').includes('..')) return null;
  if (path === '/' || path === '') path = '/index.html';
  const base = resolve(rendererDir) + sep;
  const file = normalize(join(base, path));
  if (!file.startsWith(base)) return null;
  try {
    return {
      body: await readFile(file),
      type: TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      isIndex: path === '/index.html',
    };
  } catch {
    return null;
  }
}
