/**
 * Where the browser tests put their screenshots: an ignored folder, so a test run never rewrites a
 * tracked file. `npm run screenshots` (scripts/screenshots.mjs) runs the browser tests and copies
 * every PNG from here into docs/screenshots/, on purpose. To add one to the docs, call
 * `screenshot(page, 'name')` from test/browser-bridge/cashier.ts in a browser test.
 */
import { resolve } from 'node:path';

export const SCREENSHOTS_DIR = resolve(import.meta.dirname, '../../test-results/screenshots');
