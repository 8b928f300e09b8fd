// The modules where a slip costs money or lets someone in, each with the tests that cover it.
// Read by stryker.config.mjs (what to mutate), vitest.mutate.config.ts (which tests run) and
// scripts/mutate.mjs (`npm run mutate [-- <module>]`). Only unit tests: they are fast and need no keyring.
// test/unit/shared/properties.test.ts also covers money and phone, but its hundreds of generated cases per
// mutant made a run ten times slower on the shared machine; the modules' own tests are held to the floor.
export const MODULES = {
  money: {
    mutate: ['shared/money.ts'],
    tests: ['test/unit/shared/money.test.ts'],
  },
  phone: {
    mutate: ['shared/phone.ts'],
    tests: ['test/unit/shared/phone.test.ts'],
  },
  signature: {
    mutate: ['shared/webhook-signature.ts'],
    tests: ['test/unit/shared/webhook-signature.test.ts'],
  },
  verify: {
    // The JSON depth scan lives in relay/store/events.ts (shared with import --from-sqlite): its lines too.
    mutate: ['relay/http/webhooks/verify.ts', 'relay/store/events.ts:87-102'],
    tests: ['test/unit/relay/http/webhooks/verify.test.ts'],
  },
  'pin-guard': {
    mutate: ['electron/core/people/pin-guard.ts'],
    tests: ['test/unit/core/people/pin-guard.test.ts'],
  },
  'day-close': {
    // The close and what decides its money and its CSV: the SQL sums, the report built from them, the rows by
    // reference and the CSV built from those.
    mutate: [
      'electron/core/day/day-close.ts',
      'electron/core/day/day-report.ts',
      'electron/core/day/day-sums.ts',
      'electron/core/day/day-rows.ts',
      'electron/core/day/day-csv.ts',
    ],
    tests: [
      'test/unit/core/day/day-close.test.ts',
      'test/unit/core/day/day-close-by-hand.test.ts',
      'test/unit/core/day/day-close-csv.test.ts',
      'test/unit/core/day/day-report-lines.test.ts',
      'test/unit/core/day/day-close-scope.test.ts',
    ],
  },
  'settle-rules': {
    mutate: ['electron/core/settle/settle-rules.ts'],
    tests: [
      'test/unit/core/settle/settle-rules.test.ts',
      'test/unit/core/settle/settle-by-hand.test.ts',
      'test/unit/core/day/day-close-by-hand.test.ts',
    ],
  },
  'owner-summary': {
    // The owner's figures on the phone: the hour, names and integer pesewas each commit adds up,
    // and how a group commit adds up its rows per key before writing them (SQLite).
    mutate: ['relay/store/owner-summary.ts', 'relay/store/sqlite/summary-batch.ts'],
    tests: [
      'test/unit/relay/store/owner-summary.test.ts',
      'test/unit/relay/store/sqlite/owner-summary.test.ts',
      'test/unit/relay/store/sqlite/summary-batch.test.ts',
    ],
  },
  engine: {
    mutate: ['electron/core/payments/payment-engine.ts', 'electron/core/payments/land-result.ts', 'electron/core/payments/hand-result.ts'],
    tests: [
      'test/unit/core/payments/payment-engine.test.ts',
      'test/unit/core/payments/payment-engine-once.test.ts',
      'test/unit/core/payments/payment-engine-retries.test.ts',
      'test/unit/core/payments/payment-engine-results.test.ts',
      'test/unit/core/settle/settle-by-hand.test.ts',
      'test/unit/core/day/day-close-by-hand.test.ts',
    ],
  },
};
