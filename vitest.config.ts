import { defineConfig } from 'vitest/config';

// Tests are grouped by where they run:
//  - unit:        pure Node, no I/O beyond temp files
//  - integration: real servers on loopback, real SQLite files, the real OS keychain (the relay's; integration-till: the till's)
//  - browser:     the built renderer in Debian's Chromium through playwright-core
//  - faults:      the till core in its own process, gates in front of the service and relay, the screens in Chromium
//  - electron:    the packaged shell through Playwright's Electron support (skipped by name without the binary)
// Tests that drive the screens in Chromium: one file at a time, and a poll waits on the page, whose answer can
// take seconds on a loaded machine (1 s by default).
const ONE_SCREEN_AT_A_TIME = {
  environment: 'node',
  expect: { poll: { timeout: 10_000 } },
  testTimeout: 90_000,
  hookTimeout: 90_000,
  fileParallelism: false,
} as const;

// Integration files that check a schedule against the wall clock (a retry within its slack): npm test runs
// them last and alone, as it runs the faults group, never beside another group.
const TIMED_FILES = ['test/integration/sandbox/retries.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // npm test runs this group beside the browser lane on a 2-core machine: a test of a second or two alone
          // (a property over sixty SQLite files, scrypt PINs) takes several there, past vitest's 5 s default.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          // The relay's servers, stores and processes.
          name: 'integration',
          include: ['test/integration/relay/**/*.test.ts'],
          // The relay's process tests run the built relay, as operators do: built once per run.
          globalSetup: ['test/integration/build-relay.setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          // The till's side: its core, the simulated service, the command-line tools, packaging, browser mode.
          // A group of its own so that npm test can run it in the other lane from the relay's (scripts/test-all.mjs).
          name: 'integration-till',
          include: ['test/integration/**/*.test.ts'],
          // Files that check a schedule against wall time run in the 'timing' group, alone (npm test).
          exclude: ['test/integration/relay/**', ...TIMED_FILES],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'timing',
          include: TIMED_FILES,
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          // The renderer is built once for the whole run, not once per file, and the files share one
          // module cache: each opens its own till, browser and data folder, so nothing else is shared.
          globalSetup: ['test/browser-bridge/renderer.setup.ts'],
          isolate: false,
          ...ONE_SCREEN_AT_A_TIME,
        },
      },
      {
        test: {
          // The till core in its own process behind gates (kill -9, a silent network, a lost answer), driven through the screens.
          name: 'faults',
          include: ['test/faults/**/*.test.ts'],
          ...ONE_SCREEN_AT_A_TIME,
        },
      },
      {
        test: {
          name: 'electron',
          include: ['test/electron/**/*.test.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
