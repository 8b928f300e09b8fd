/**
 * The till on its own sandbox and relay (not the embedded ones), set up by the owner through the
 * Settings screen at the keyboard; the service behind a door the test shuts (nothing listens) or makes lose
 * its answers, so the waiting screen must say where each charge is; the relay is stopped and started again
 * while a payment waits and the result still reaches the cashier; then the owner completes LIVE and switches to it.
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
  sell,
  tabTo,
  text,
} from '../browser-bridge/cashier.js';
import { sandboxTransactions } from '../browser-bridge/sandbox-api.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';
import { HeldClock } from '../support/held-clock.js';
import { openDoor, type Door } from '../support/tcp-door.js';

const dirs = { sandbox: mkdtempSync(join(tmpdir(), 'momo-bt-sandbox-')), relay: mkdtempSync(join(tmpdir(), 'momo-bt-relay-')) };
const quiet = () => undefined;
let sandbox: SandboxHandle;
let relay: RunningRelay | null = null;
let relayPort = 0;
let config: RelayConfig;
/** In front of the sandbox: the till's service address. */
let door: Door;
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
  door = await openDoor(Number(new URL(sandbox.baseUrl).port));
});

// A charge is sent for 60 s after Enter, as in a shop, on a core clock the test moves past that deadline when a
// scenario needs it (so a slow machine never reaches it first); each attempt answered within 1.5 s or counted unknown.
const SEND_DEADLINE_MS = 60_000;
let coreAheadMs = 0;
const pastTheDeadline = () => {
  coreAheadMs += SEND_DEADLINE_MS;
};
const till = useTill(() => ({
  embedded: false,
  relay: { initialBackoffMs: 100, maxBackoffMs: 500 },
  http: { connectTimeoutMs: 1_000, responseTimeoutMs: 1_500 },
  retryDelaysMs: [200, 500],
  sendDeadlineMs: SEND_DEADLINE_MS,
  now: () => Date.now() + coreAheadMs,
}));

afterEach(() => clock.release());

afterAll(async () => {
  await door?.close();
  await relay?.close();
  await sandbox?.close();
  rmSync(dirs.sandbox, { recursive: true, force: true });
  rmSync(dirs.relay, { recursive: true, force: true });
});

/** Types this sandbox's and relay's details for `environment` from the focused Service address on, and saves them. */
async function typeSettings(page: Page, environment: 'test' | 'live'): Promise<void> {
  const key = sandbox.keys[environment];
  for (const value of [door.url, sandbox.merchantId, key.publicId, key.secret, `http://127.0.0.1:${relayPort}`, token.token]) {
    await page.keyboard.type(value);
    await page.keyboard.press('Tab');
  }
  const label = environment.toUpperCase();
  await focusedText(page, new RegExp(`^Save ${label} settings$`));
  await enter(page);
  await expect.poll(() => text(page, `${environment}-save-message`)).toBe(`${label} settings saved.`);
}

describe('own sandbox and relay', () => {
  it('the owner enters the TEST details in Settings; the secret comes back masked; the status bar keeps the newest relay state', async () => {
    const { page } = till.get();
    expect(await text(page, 'relay-state')).toMatch(/offline/);
    await goTo(page, 'Settings');
    await chooseOwnerPin(page, '1357', 'Settings');
    await tabTo(page, /Service address/);
    await focused(page, 'test-baseUrl');
    // The relay is down as the owner saves, and the status the page reads after the save (not connected) reaches it
    // only once the relay is back and the till connected: that late answer must not put the bar back to reconnecting.
    await relay?.close();
    relay = null;
    const deliverStatus = till.get().holdAnswers('app:status');
    await typeSettings(page, 'test');
    expect(await text(page, 'test-secretKey-hint')).toBe(`Saved: sk_test_••••${sandbox.keys.test.secret.slice(-4)}`);
    expect(await page.inputValue('#test-secretKey')).toBe('');
    expect(await page.content()).not.toContain(sandbox.keys.test.secret);
    expect(await page.content()).not.toContain(token.token);
    relay = await startRelay({ port: relayPort, host: '127.0.0.1', dataDir: dirs.relay, config, log: quiet });
    await expect.poll(() => text(page, 'relay-state')).toMatch(/connected/);
    const statusAnswered = page.waitForResponse(
      (r) => r.url().endsWith('/momo/invoke') && r.request().postData()?.includes('"app:status"') === true,
    );
    deliverStatus();
    await statusAnswered;
    // Two frames: the answer has been read and rendered.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await text(page, 'relay-state')).toMatch(/connected/);
    expect(await axe(page)).toEqual([]);
  });

  it('the waiting screen says where the charge is and only what the till knows; Stop sends nothing; both ends counted apart', async () => {
    const { page } = till.get();
    await goTo(page, 'Charge');
    await focused(page, 'amount');
    const heading = (name: string) => page.getByRole('heading', { name }).waitFor({ timeout: 15_000 });
    // The customer can still be charged by a payment that may reach the service later: never "not charged twice".
    const neverTwice = async () => expect(await page.locator('body').innerText()).not.toMatch(/charged twice/i);

    // Nothing listens at the service's address: no attempt can reach it.
    await door.set('shut');
    await sell(page, '11', '0241237711');
    await heading('Sending to the payment service…');
    expect(await text(page, 'waiting-state')).toMatch(/no prompt has gone out/);
    await neverTwice();
    // Stopping before the service acknowledged it asks first; Keep trying has the focus, so an Enter by reflex keeps
    // it: the cashier is back at a new sale, the till still sending it until its deadline.
    await page.keyboard.press('Escape');
    expect(await text(page, 'stop-question')).toMatch(/has not answered yet\. Keep sending it\?/);
    await focusedText(page, /^Keep trying until/);
    await enter(page);
    await focused(page, 'amount');

    // Waited for past its deadline: it ends, on the screen the cashier is looking at.
    await sell(page, '12', '0241237712');
    await heading('Sending to the payment service…');
    pastTheDeadline();
    await heading('Not sent: no prompt went out');
    await neverTwice();
    await page.keyboard.press('Escape'); // nothing left to send: no question
    await focused(page, 'amount');

    await sell(page, '14', '0241237714');
    await heading('Sending to the payment service…');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Stop: don’t send it' }).click();
    await focused(page, 'amount');

    // The service takes the request (07: authorised, its result sent only when replayed) but its answer is lost.
    await door.set('lose-answers');
    await sell(page, '13', '0241237707');
    await heading('The till does not know if the payment service got it');
    await neverTwice();
    pastTheDeadline();
    await heading('May have reached the payment service');
    await neverTwice();
    await page.keyboard.press('Escape');
    await focused(page, 'amount');
    await door.set('open');

    // Counted apart, neither paid nor failed: History labels each, Takings gives their count and amount.
    await goTo(page, 'History');
    await expect
      .poll(() => page.getByTestId('history-row').allInnerTexts())
      .toEqual([
        expect.stringMatching(/GH₵13\.00[\s\S]*May have reached the service/),
        expect.stringMatching(/GH₵14\.00[\s\S]*Not sent \(no prompt\)/),
        expect.stringMatching(/GH₵12\.00[\s\S]*Not sent \(no prompt\)/),
        expect.stringMatching(/GH₵11\.00[\s\S]*Not sent \(no prompt\)/),
      ]);
    await goTo(page, 'Takings');
    if (await page.locator('#owner-pin').isVisible()) {
      await page.keyboard.type('1357');
      await enter(page);
    }
    expect(await text(page, 'today-unsent-not-sent')).toMatch(/^Not sent: 3 payments, GH₵37\.00\./);
    expect(await text(page, 'today-unsent-unconfirmed')).toMatch(/^May have reached the service: 1 payment, GH₵13\.00\./);
    expect(await text(page, 'today-count')).toBe('0 / 0'); // not one of them counted as paid or as a payment
    // The three that never reached the service never did, the door open again since; the fourth did, once.
    const sent = await sandboxTransactions(sandbox.baseUrl);
    expect(sent.filter((t) => ['233241237711', '233241237712', '233241237714'].includes(t.msisdn))).toEqual([]);
    expect(sent.filter((t) => t.msisdn === '233241237707')).toHaveLength(1);
  });

  it('a payment survives the relay being restarted while the cashier waits', async () => {
    const { page } = till.get();
    await goTo(page, 'Charge');
    await focused(page, 'amount');
    clock.hold();
    await sellToWaiting(page, '15', '0241237706');
    // At the service and on the customer's phone: the screen says so, and promises nothing it cannot know.
    expect(await page.locator('body').innerText()).not.toMatch(/charged twice/i);
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
