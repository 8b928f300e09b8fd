/**
 * The till on its own sandbox and relay (not the embedded ones), set up by the owner through the
 * Settings screen at the keyboard; the relay is stopped and started again while a payment waits and
 * the result still reaches the cashier; then the owner completes LIVE and switches to it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSandbox, type SandboxHandle } from '../../sandbox/server.js';
import { startRelay, type RunningRelay } from '../../relay/http/index.js';
import { createRelayToken, parseRelayConfig, type RelayConfig } from '../../relay/ops/index.js';
import {
  axe,
  chooseOwnerPin,
  enter,
  focused,
  focusedText,
  goTo,
  receiptScreenshot,
  resultTitle,
  screenshot,
  sellToWaiting,
  stopWaiting,
  tabTo,
  text,
} from '../browser-bridge/cashier.js';
import { sandboxTransactions } from '../browser-bridge/sandbox-api.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';
import { HeldClock } from '../support/held-clock.js';

const dirs = { sandbox: mkdtempSync(join(tmpdir(), 'momo-bt-sandbox-')), relay: mkdtempSync(join(tmpdir(), 'momo-bt-relay-')) };
const quiet = () => undefined;
let sandbox: SandboxHandle;
let relay: RunningRelay | null = null;
let relayPort = 0;
let config: RelayConfig;
const token = createRelayToken();
// Held while a payment must stay pending (the relay is stopped, LIVE is switched on) whatever the machine's speed.
const clock = new HeldClock();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir: dirs.sandbox, timeScale: TIME_SCALE, clock, signedPayload: 'body', log: quiet });
  config = parseRelayConfig({
    keys: [sandbox.keys.test, sandbox.keys.live],
    tills: [{ label: 'browser-test', tokenHash: token.tokenHash }],
    signedPayload: 'body',
  });
  relay = await startRelay({ port: 0, host: '127.0.0.1', dataDir: dirs.relay, config, log: quiet });
  relayPort = Number(new URL(relay.url).port);
});

const till = useTill(() => ({ embedded: false, relay: { initialBackoffMs: 100, maxBackoffMs: 500 } }));

afterEach(() => clock.release());

afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
  rmSync(dirs.sandbox, { recursive: true, force: true });
  rmSync(dirs.relay, { recursive: true, force: true });
});

/** Types this sandbox's and relay's details for `environment` from the focused Service address on, and saves them. */
async function typeSettings(page: Page, environment: 'test' | 'live'): Promise<void> {
  const key = sandbox.keys[environment];
  for (const value of [sandbox.baseUrl, sandbox.merchantId, key.publicId, key.secret, relay?.url ?? '', token.token]) {
    await page.keyboard.type(value);
    await page.keyboard.press('Tab');
  }
  const label = environment.toUpperCase();
  await focusedText(page, new RegExp(`^Save ${label} settings$`));
  await enter(page);
  await expect.poll(() => text(page, `${environment}-save-message`)).toBe(`${label} settings saved.`);
}

describe('own sandbox and relay', () => {
  it('the owner enters the TEST details in Settings; the secret comes back masked', async () => {
    const { page } = till.get();
    expect(await text(page, 'relay-state')).toMatch(/offline/);
    await goTo(page, 'Settings');
    await chooseOwnerPin(page, '1357', 'Settings');
    await tabTo(page, /Service address/);
    await focused(page, 'test-baseUrl');
    await typeSettings(page, 'test');
    expect(await text(page, 'test-secretKey-hint')).toBe(`Saved: sk_test_••••${sandbox.keys.test.secret.slice(-4)}`);
    expect(await page.inputValue('#test-secretKey')).toBe('');
    expect(await page.content()).not.toContain(sandbox.keys.test.secret);
    expect(await page.content()).not.toContain(token.token);
    await expect.poll(() => text(page, 'relay-state')).toMatch(/connected/);
    expect(await axe(page)).toEqual([]);
  });

  it('a payment survives the relay being restarted while the cashier waits', async () => {
    const { page } = till.get();
    await goTo(page, 'Charge');
    await focused(page, 'amount');
    clock.hold();
    await sellToWaiting(page, '15', '0241237706');
    await relay?.close();
    relay = null;
    await expect.poll(() => text(page, 'waiting-relay'), { timeout: 10_000 }).toMatch(/reconnecting|offline/);
    expect(await text(page, 'relay-state')).toMatch(/reconnecting|offline/);
    await screenshot(page, 'waiting-relay-down');
    expect(await axe(page)).toEqual([]);
    // The customer approves while the relay is down: the webhook is retried.
    clock.release();
    await expect
      .poll(async () => (await sandboxTransactions(sandbox.baseUrl)).find((t) => t.msisdn === '233241237706')?.status, { timeout: 10_000 })
      .toBe('SUCCESS');
    expect(await page.getByTestId('result-title').count()).toBe(0);
    relay = await startRelay({ port: relayPort, host: '127.0.0.1', dataDir: dirs.relay, config, log: quiet });
    expect(await resultTitle(page, 30_000)).toBe('PAID');
    expect(await text(page, 'result-amount')).toBe('GH₵15.00');
    await expect.poll(() => text(page, 'relay-state')).toMatch(/connected/);
  });

  it('switches to LIVE once its settings are complete: no sandbox banner, and TEST payments stay out of LIVE', async () => {
    const { page } = till.get();
    // A slow TEST approval the cashier stops waiting for: it resolves after the switch to LIVE, and its
    // sandbox result must not appear there as a late notice.
    let slowTestSale: { environment: string; state: string } | null = null;
    const off = till.get().core.on('payment:updated', (p) => {
      if (p.msisdn === '233241237806') slowTestSale = { environment: p.environment, state: p.state };
    });
    await focusedText(page, /New sale/);
    await enter(page);
    clock.hold();
    await sellToWaiting(page, '17', '0241237806');
    await stopWaiting(page);
    await goTo(page, 'Settings');
    await focused(page, 'owner-pin');
    await page.keyboard.type('1357');
    await enter(page);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.locator('#live-baseUrl').focus();
    await typeSettings(page, 'live');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, /^Switch to LIVE/);
    await enter(page);
    await focused(page, 'switch-pin');
    await page.keyboard.type('1357');
    await enter(page);
    await expect.poll(() => text(page, 'env-badge')).toBe('LIVE');
    expect(await page.getByTestId('sandbox-banner').count()).toBe(0);
    await expect.poll(() => text(page, 'live-assertive')).toBe('The till is now in LIVE mode.');

    // The stopped TEST sale gets its result while the till is in LIVE.
    expect(slowTestSale).toEqual({ environment: 'test', state: 'awaiting_customer' });
    clock.release();
    await expect.poll(() => slowTestSale, { timeout: 15_000 }).toEqual({ environment: 'test', state: 'success' });
    off();
    await page.waitForTimeout(500); // the event's way into the page
    expect(await page.getByTestId('late-notice').count()).toBe(0);
    expect(await text(page, 'live-assertive')).not.toMatch(/Late result/);

    await goTo(page, 'History');
    await expect.poll(() => text(page, 'history-count')).toBe('0 payments');
    await goTo(page, 'Charge');
    await focused(page, 'amount');
    expect(await page.getByTestId('result-title').count()).toBe(0); // the TEST sale's result is gone
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'charge-live');

    // A LIVE prompt in the simulator waits for a tester to authorise it by hand (dashboard API).
    await sellToWaiting(page, '25', '0241230042');
    let reference: string | undefined;
    await expect
      .poll(async () => {
        reference = (await sandboxTransactions(sandbox.baseUrl)).find((t) => t.msisdn === '233241230042')?.reference;
        return reference;
      })
      .toBeDefined();
    const res = await fetch(new URL(`/dashboard/api/transactions/${reference}/authorise`, sandbox.baseUrl), {
      method: 'POST',
      headers: { 'x-sandbox-dashboard': '1' },
    });
    expect(res.status).toBe(200);
    expect(await resultTitle(page, 30_000)).toBe('PAID');
    expect(await text(page, 'result-reference')).toBe(reference);
    // The LIVE receipt has no sandbox marking.
    await expect.poll(() => text(page, 'receipt')).toMatch(/PAID/);
    expect(await text(page, 'receipt')).not.toMatch(/SANDBOX|TEST/);
    await receiptScreenshot(page, 'receipt-80mm-paid');
  });
});
