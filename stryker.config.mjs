// StrykerJS (mutation testing, issue 22): run through `npm run mutate [-- <module>]` (scripts/mutate.mjs),
// which sets MUTATE_MODULE to one name of scripts/mutate-modules.mjs. Never part of `npm test`: it is slow.
// How to read a surviving mutant, and when one is equivalent: docs/testing.md.
import { MODULES } from './scripts/mutate-modules.mjs';

const name = process.env.MUTATE_MODULE ?? '';
const module = MODULES[name];
if (!module) throw new Error(`MUTATE_MODULE must be one of: ${Object.keys(MODULES).join(', ')} (got "${name}")`);
// Read by vitest.mutate.config.ts in Stryker's test-runner processes, which inherit this environment.
process.env.MUTATE_TESTS = JSON.stringify(module.tests);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  mutate: module.mutate,
  coverageAnalysis: 'perTest',
  // The machine is shared: two test runners at most.
  concurrency: 2,
  timeoutMS: 20_000,
  // Each module must kill 90% of its mutants: `npm run mutate` fails below that.
  thresholds: { high: 95, low: 90, break: 90 },
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  // Reuses the last run's results for code and tests that did not change (git-ignored).
  incremental: true,
  incrementalFile: `reports/stryker-incremental-${name}.json`,
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  // The sandbox needs the code and the tests, not the renderer's assets, docs or build output.
  ignorePatterns: ['/out', '/dist', '/docs', '/resources', '/reports', '/coverage', '/test-results', '/.data', '/test/browser'],
  // Mutants left alive on purpose are marked in the source with `// Stryker disable next-line <mutator>: <why>`
  // (each one equivalent: it cannot change what the code does). The list, and why, is in docs/testing.md.
};
