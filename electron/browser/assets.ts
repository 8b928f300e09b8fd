/** The built renderer's files (out/renderer), read-only: no listings, nothing outside the folder. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { contentTypeOf, rendererFile } from '../main/protocol-path.js';

export type Asset = { body: Buffer; type: string; isIndex: boolean };

export async function readAsset(rendererDir: string, pathname: string): Promise<Asset | null> {
  const found = rendererFile(pathname, resolve(rendererDir));
  if (!found) return null;
  try {
    return { body: await readFile(found.file), type: contentTypeOf(found.file), isIndex: found.isIndex };
  } catch {
    return null;
  }
}
