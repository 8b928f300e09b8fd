import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Our layout is electron/ + renderer/, not electron-vite's default src/, so every entry is explicit.
// The preload is built as CommonJS: a sandboxed window cannot load an ESM preload.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rolldownOptions: {
        input: { index: resolve(__dirname, 'electron/main/index.ts') },
        output: { format: 'es' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(__dirname, 'electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      emptyOutDir: true,
      // electron-vite leaves every bundle unminified; the renderer is the one large enough to matter in the installer.
      minify: true,
      // One bundle for a desktop app read from disk: its size is measured in the packaging test, not warned about here.
      chunkSizeWarningLimit: 1500,
      rolldownOptions: {
        input: { index: resolve(__dirname, 'renderer/index.html') },
      },
    },
  },
});
