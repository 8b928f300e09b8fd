/**
 * Builds the renderer for the browser tests into a private temp folder with the renderer section of
 * the app's build (vite + the React plugin, root renderer/), so tests never race another build of out/.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import react from '@vitejs/plugin-react';

const ROOT = resolve(import.meta.dirname, '../..');

export async function buildRenderer(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'momo-renderer-'));
  await build({
    root: join(ROOT, 'renderer'),
    base: './',
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 4000, reportCompressedSize: false },
  });
  return outDir;
}
