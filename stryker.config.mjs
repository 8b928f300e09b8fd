// StrykerJS (mutation testing): run through `npm run mutate [-- <module>]` (scripts/mutate.mjs),
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
 * verify (relay/http/webhooks/verify.ts)
 *  - (nestedDeeperThan's `i < raw.length` -> `i <= raw.length`, equivalent: it now lives in relay/store/events.ts,
 *    outside this module; its unit tests in webhooks/verify.test.ts still run.)
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
 *  (The "digest must be 64 hex digits" message, a survivor of the first run, is asserted since.)
 *
 * money (shared/money.ts)
 *  - parseAmount's three "Amount is too large." guards (text length, cedi digits, safe integer / MAX_PESEWAS)
 *    each refuse what another one also refuses: removing any one alone (-> false, && for ||) changes nothing;
 *    the messages of the last two are then unreachable (no coverage).
 *  - formatGhs: the `part.type === 'currency'` and blank-literal branches rewrite parts this Node's ICU
 *    already writes as wanted ("GH₵", no space); they are there for other ICU builds. Checked on Node 20.20.2
 *    (ICU 78.2, CLDR 48) for every cedi amount 0-200,000 (step 7) and up to 90,071,992,547,409: the parts are
 *    only currency "GH₵", integer, group ",", decimal "." and fraction, never a literal. A large amount cannot
 *    kill them (MAX_PESEWAS and MAX_SAFE_INTEGER are tested), nor a negative one: formatGhs formats the
 *    absolute value and writes the "-" itself, so ICU's minusSign part never reaches the loop.
 *  - The 4 StringLiteral mutants of the ghsFormatter's options ('en-GH', 'currency', 'GHS', 'narrowSymbol'
 *    -> "") are NOT equivalent and are in fact killed: each makes `new Intl.NumberFormat` throw a RangeError
 *    when money.ts is imported (checked on this Node), so every test of money.test.ts fails. Stryker 9.6.1's
 *    vitest runner reports them as survived because the formatter is built at import (a static mutant) and
 *    a test file that fails to import yields no test results (stryker-js issues 6144 and 6209). They count
 *    against the score; building the formatter on first use would make them ordinary mutants.
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
 * day-close (electron/core/day/: day-close, day-report, day-sums, day-rows, day-csv)
 *  - day-csv FIGURE `/^-?[0-9]+…/` -> `/^-[0-9]+…/`: a positive figure then goes through csvCell, which writes
 *    "10.00" unchanged (no formula start, nothing to quote).
 *  - day-csv cells `cell !== null && FIGURE.test(cell)` -> `true && …`: FIGURE.test(null) reads "null", no figure.
 *  - day-csv exported `completed ? … : [null, null]` (and its `[]`): a transaction's line always has its
 *    completion time; the branch is for a line without one, which no close writes.
 *  - day-csv csvLine `till?.tillName` -> `till.tillName`: a report's byTill is grouped from every row it counts
 *    (corrections included), and csvLine is only given rows of that report, so their till is always found.
 *    (awaitingRow's is not: a payment still awaiting its result can come from a till with no result in the Z;
 *    day-close-csv.test.ts closes such a day.)
 *  - day-close close `report.openedAt === null ? null : Date.parse(…)` -> `false`: Date.parse(null) is NaN,
 *    which SQLite stores as NULL, the same as null.
 *  - day-sums read `previousCloseAt === null ? [] : late…` -> `false`: the late query with a NULL bound finds no
 *    row (x < NULL is never true), the same [].
 *  - day-sums read `previousCloseAt === null ? firstStart : null` -> `true`: buildDayReport uses the previous
 *    close before firstStart whenever there is one.
 *  - day-sums ORDER -> '' (the late rows unordered): the late query reads transactions_unclosed_by_time
 *    (migration 18), whose order is that ORDER BY's (completed_at, reference).
 *  - day-rows store's late `previousCloseAt !== null && …` -> `true && …`: before the first close the bound is
 *    null, and a start (Unix ms, positive) `< null` is false in JS as the guard makes it.
 *  - day-rows lines' `kept === 'frozen' ? … : []` with `[]` -> `["Stryker was here"]`: a Z kept 'each' stores
 *    every row's late mark (never NULL), so the set of late references is never read for it.
 *
 * pin-guard (electron/core/people/pin-guard.ts)
 *  - TILL_SUBJECT '*till' -> '': any key no person's id can take works; ids are ULIDs, never empty.
 *
 * engine (electron/core/payments/payment-engine.ts, land-result.ts, hand-result.ts)
 *  - doSubmit `result.kind === 'error' && isDefiniteRejection(…)` with the first part -> `true`, and the
 *    Retry-After choice `result.kind === 'error' ? result.retryAfterMs : null` -> `true`: a no-answer result
 *    has no status (undefined >= 400 is false) and no retryAfterMs (`?? 0` gives the same 0 as null).
 *  - `timer.unref?.()` -> `timer.unref()`: Node's timers always have unref.
 *  - retryHeld and applyTransaction `if (timer) clearTimeout(timer)` -> `true`: clearTimeout(undefined) does nothing.
 *  - applyKnownResult `if (!row) return` -> `false`: it runs right after the payment was updated, so the row is there.
 *  - stopWaiting `if (updated)` -> `true`: an update with no state guard on a row just read always changes it.
 *  - applyKnownResult `row.reference ?? ''` -> `?? "Stryker was here!"`: either text matches no stored reference,
 *    and the result is found by the payment's merchantRef (no test reaches a null reference: no coverage).
 *  - hand-result: `payment.hand_outcome === 'paid' && payment.hand_reference === tx.reference` with the first
 *    part -> `true`, and handReferenceOf's `hand_outcome === 'paid' && hand_reference` -> `true` / `||`: a
 *    NOT PAID settlement never has a reference (settle-rules refuses one), so hand_reference decides alone.
 *
 * owner-summary (relay/store/owner-summary.ts)
 *  - firstChars `if (text.length <= max) return text` -> `false`, and `<=` -> `<`: a fast path; the loop after
 *    it returns the same text for a string no longer than `max` (and for one exactly `max` long).
 */
