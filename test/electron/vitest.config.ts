// The real-Electron tests run on their own (they need the binary, a build and a keychain):
//   scripts/with-keyring.sh npx vitest run --config test/electron/vitest.config.ts
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'electron',
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/electron/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
