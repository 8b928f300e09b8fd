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
};

/*
 * Equivalent mutants, left alive on purpose (no input can tell them from the original; docs/testing.md).
 * They count against the score; each module stays above the 90% floor with them.
 *
 * verify (relay/http/webhook-verify.ts)
 *  - nestedDeeperThan `i < raw.length` -> `i <= raw.length`: raw[raw.length] is undefined and matches no branch.
 *  - checkCharacters `typeof value === 'string' && …` -> `true && …`: the only non-string is a null
 *    clientReference, and the pattern tested on "null" finds nothing.
 *  - parseBody `issues[0]?.path` -> `issues[0].path`, and its `?? ''`: a failed zod parse always has an issue.
 *  - DeliveryVerifier `isoText = ''` -> "Stryker was here!": read only when isoMs matches, after it was set.
 *  - isoAt `ms !== this.isoMs` -> `true`: the cache is skipped, the same text is recomputed.
 *
 * signature (shared/webhook-signature.ts)
 *  - toBuffer `Buffer.isBuffer(rawBody)` -> `false`: a Buffer is a Uint8Array, the next branch gives the same bytes.
 *  - `Buffer.from(…, 'utf8')` -> `''`: utf8 is Buffer.from's default.
 *  - `given.length !== expected.length || …` -> `false …`: the 64-hex-digit check already makes both 32 bytes.
 *  (Not equivalent, left for a next round: the "digest must be 64 hex digits" message is not asserted.)
 *
 * money (shared/money.ts)
 *  - parseAmount's three "Amount is too large." guards (text length, cedi digits, safe integer / MAX_PESEWAS)
 *    each refuse what another one also refuses: removing any one alone (-> false, && for ||) changes nothing;
 *    the messages of the last two are then unreachable (no coverage).
 *  - formatGhs: the `part.type === 'currency'` and blank-literal branches rewrite parts this Node's ICU
 *    already writes as wanted ("GH₵", no space); they are there for other ICU builds.
 *  - checkCedisEntry `match[1] ?? ''`: the group ([0-9]*) always takes part; `cedis || '0'` -> `cedis || ''`:
 *    Number('') is 0 too.
 *
 * phone (shared/phone.ts)
 *  - `compact(input.trim())` -> `compact(input)`: compact removes the white space anyway.
 *  - `/^233[0-9]{9}$/` -> without `$`: a longer 233… text still fails the 10-digit check, with the same message.
 *  - `text.startsWith('+') ? text : digits` mutations: libphonenumber reads the national and the +233 form alike.
 *  - `!parsed || parsed.country !== 'GH' || …` parts and the FIXED_LINE_OR_MOBILE test: the regular expressions
 *    before them already admit only Ghana's 0XXXXXXXXX, and no Ghana number parses to another country.
 *  - formatNational `d.length > 10 ? d.slice(10) : ''` -> `true` / `>=`: d.slice(10) of 10 digits or fewer is ''.
 *  - guessNetwork `/^0[0-9]{2}/` -> `/^0[0-9]/`: with one digit after the 0, d.slice(1, 3) is no prefix.
 *
 * settle-rules (electron/core/settle/settle-rules.ts)
 *  - `if (feeText)` -> `true`: checkCedisEntry('') gives null, as no fee does.
 *  - `fee !== null && fee >= amount` -> `true && …`: fee is null only for ".", and null >= a positive amount is false.
 *  (The trim of the fee and the note's `>` survived the first run; test/unit/core/settle/settle-rules.test.ts kills them.)
 *
 * pin-guard (electron/core/people/pin-guard.ts)
 *  - TILL_SUBJECT '*till' -> '': any key no person's id can take works; ids are ULIDs, never empty.
 */
