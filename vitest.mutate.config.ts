import { defineConfig } from 'vitest/config';

// Only for Stryker (stryker.config.mjs): the unit tests that cover the module being mutated,
// named in MUTATE_TESTS by stryker.config.mjs (from scripts/mutate-modules.mjs).
const tests = JSON.parse(process.env.MUTATE_TESTS ?? '[]') as string[];

export default defineConfig({
  test: {
    include: tests.length > 0 ? tests : ['test/unit/**/*.test.ts'],
    environment: 'node',
    // The machine is shared: a test that takes 2 s alone can take 20 s under a mutation run's load.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
