/**
 * The counter under faults, through the real screens: the till core in its own process (killed with
 * -9, paused), gates in front of the payment service and the relay, a service clock the test moves.
 * Every scenario ends with the till's records equal to the service's, one for one, at most one
 * prompt per sale and no amount the cashier did not type.
 */
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { buildRenderer } from '../browser-bridge/build-renderer.js';
import { launchBrowser } from '../browser-bridge/harness.js';
import { sellToWaiting, text } from '../browser-bridge/cashier.js';
import { sandboxTransactions } from '../browser-bridge/sandbox-api.js';
import { disagreements, openShop, records, type Shop } from './support/shop.js';

let browser: Browser;
let rendererDir: string;
let shop: Shop;
/** What the cashier typed in this test (as cedis), the only amounts either side may hold. */
let typed: string[];

beforeAll(async () => {
  [browser, rendererDir] = await Promise.all([launchBrowser(), buildRenderer()]);
});
afterAll(async () => {
  await browser?.close();
  if (rendererDir) rmSync(rendererDir, { recursive: true, force: true });
});
beforeEach(async () => {
  typed = [];
  shop = await openShop(browser, rendererDir);
  await expect.poll(() => text(shop.page, 'relay-state')).toMatch(/connected/);
});
afterEach(async () => {
  await shop?.close();
});

/** The till and the service agree, whatever the fault was. */
async function expectRecordsAgree(): Promise<void> {
  await expect.poll(async () => disagreements(await records(shop), typed), { timeout: 20_000 }).toEqual([]);
}

async function serviceStatus(msisdn: string): Promise<string | undefined> {
  return (await sandboxTransactions(shop.sandbox.baseUrl)).find((t) => t.msisdn === msisdn)?.status;
}

describe('the till under faults', () => {
  it('kill -9 of the till while the customer approves: after the restart the payment is PAID once, at the amount typed', async () => {
    const { page, clock } = shop;
    clock.hold(); // the customer has the prompt and has not answered yet
    typed.push('15.00');
    await sellToWaiting(page, '15', '0241230011');
    await expect.poll(() => serviceStatus('233241230011')).toBe('PENDING');
    await shop.restartAfterKill(() => clock.release()); // the customer approves while the till is dead
    await expect.poll(() => serviceStatus('233241230011')).toBe('SUCCESS');
    await expectRecordsAgree();
    const { till } = await records(shop);
    expect(till.map((p) => [p.state, p.amount])).toEqual([['success', 1500]]);
    // The new start types nothing on the cashier's behalf.
    await page.locator('#amount').waitFor();
    expect(await page.inputValue('#amount')).toBe('');
  });
});
