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
import { enter, focused, retype, sell, sellToWaiting, stopWaiting, tabTo, text } from '../browser-bridge/cashier.js';
import { signIn, switchPerson, switchTo } from '../browser-bridge/sign-in.js';
import { OWNER_PIN, openShop, records, type Shop } from './support/shop.js';
import * as check from './support/scenario.js';

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
afterEach(async (context) => {
  // A failing scenario shows what the till logged last (its log reaches stderr with MOMO_FAULT_VERBOSE=1).
  if (context.task.result?.state === 'fail') {
    console.error(shop?.till.stderr.slice(-40).join('\n'));
    console.error(`the service's and the relay's last log lines:\n${shop?.serviceLog.join('\n')}`);
  }
  await shop?.close();
});

const expectRecordsAgree = () => check.expectRecordsAgree(shop, typed);
const serviceStatus = (msisdn: string) => check.serviceStatus(shop, msisdn);
const prompts = (msisdn: string) => check.prompts(shop, msisdn);
const expectResult = (title: 'PAID' | 'NOT PAID', amount: string) => check.expectResult(shop, title, amount);

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
    // The new start types nothing on the cashier's behalf, and says what happened to the sale it left open.
    await page.locator('#amount').waitFor();
    expect(await page.inputValue('#amount')).toBe('');
    await expect.poll(() => text(page, 'late-notice')).toMatch(/^PAID: GH₵15\.00 from 024 123 0011 \(open when the till stopped\)/);
  });

  it('the relay unreachable (refused) while the customer approves: the result lands once it is back, PAID once', async () => {
    const { page, relayGate } = shop;
    await relayGate.set({ kind: 'refuse' });
    await expect.poll(() => text(page, 'relay-state')).toMatch(/reconnecting|offline/);
    typed.push('20.00');
    await sellToWaiting(page, '20', '0241230022');
    await expect.poll(() => serviceStatus('233241230022')).toBe('SUCCESS');
    // The service's deliveries fail while the relay is away; its retries come on its own (moved) clock.
    shop.clock.advance(20_000);
    expect(await page.getByTestId('result-title').count()).toBe(0);
    await relayGate.set({ kind: 'pass' });
    shop.clock.advance(60_000);
    await expectResult('PAID', 'GH₵20.00');
    expect(await prompts('233241230022')).toBe(1);
    await expectRecordsAgree();
  });

  it("the relay's packets dropped silently: nothing is lost, the result lands when the network carries again", async () => {
    const { page, relayGate } = shop;
    await relayGate.set({ kind: 'drop' });
    // No result can arrive now, and the screens say so within seconds (the relay's heartbeats stopped).
    await expect.poll(() => text(page, 'relay-state')).toMatch(/reconnecting|offline/);
    typed.push('21.00');
    await sellToWaiting(page, '21', '0241230023');
    await expect.poll(() => serviceStatus('233241230023')).toBe('SUCCESS');
    shop.clock.advance(20_000);
    expect(await page.getByTestId('result-title').count()).toBe(0);
    await relayGate.set({ kind: 'pass' });
    shop.clock.advance(60_000);
    await expectResult('PAID', 'GH₵21.00');
    expect(await text(page, 'relay-state')).toMatch(/connected/);
    expect(await prompts('233241230023')).toBe(1);
    await expectRecordsAgree();
  });

  it("the service's answer lost: the charge took effect there, the till's resends never prompt the customer again", async () => {
    const { page, serviceGate } = shop;
    shop.clock.hold();
    await serviceGate.set({ kind: 'lose-answer', then: 'hang' });
    typed.push('25.00');
    await sell(page, '25', '0241230025');
    await expect.poll(() => serviceStatus('233241230025')).toBe('PENDING');
    // The till waited past its response time-out and sent again (same reference): still one prompt.
    await expect.poll(() => serviceGate.lost(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    expect(await prompts('233241230025')).toBe(1);
    await serviceGate.set({ kind: 'pass' });
    shop.clock.release();
    await expectResult('PAID', 'GH₵25.00');
    expect(await prompts('233241230025')).toBe(1);
    await expectRecordsAgree();
  });

  it('the request lost on its way: the service never saw it, so nothing is charged until a send arrives, then once', async () => {
    const { page, serviceGate } = shop;
    await serviceGate.set({ kind: 'lose-request', then: 'close' });
    typed.push('30.00');
    await sell(page, '30', '0241230030');
    await expect.poll(() => serviceGate.lost(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    expect(await prompts('233241230030')).toBe(0);
    expect(await page.getByTestId('result-title').count()).toBe(0);
    await expectRecordsAgree(); // nothing at the service, nothing PAID at the till
    await serviceGate.set({ kind: 'pass' });
    await expectResult('PAID', 'GH₵30.00');
    expect(await prompts('233241230030')).toBe(1);
    await expectRecordsAgree();
  });

  it('the service refused outright (nothing listens there): no prompt goes out, the charge ends NOT SENT when the cashier stops it or at its deadline, and is never sent after', async () => {
    const { page, serviceGate, till } = shop;
    await serviceGate.set({ kind: 'refuse' });
    typed.push('11.00', '12.00', '13.00');
    await sell(page, '11', '0241230191');
    await expect.poll(() => text(page, 'waiting-state')).toMatch(/^Not at the payment service yet: no prompt has gone out/);
    // The customer pays cash and leaves: the cashier stops it before the service ever had it.
    await tabTo(page, /Stop waiting/);
    await enter(page);
    await page
      .getByTestId('stop-question')
      .getByRole('button', { name: /^Stop:/ })
      .click();
    await focused(page, 'amount');
    await expect.poll(async () => (await records(shop)).till.map((p) => p.state)).toEqual(['not_sent']);

    await sell(page, '12', '0241230192');
    await expect.poll(() => text(page, 'waiting-state')).toMatch(/^Not at the payment service yet/);
    await till.setAhead(61_000); // nobody stops this one: its deadline passes while every try is refused
    await expect.poll(() => page.locator('#waiting-title').textContent()).toBe('Not sent: no prompt went out');
    expect(await page.getByTestId('result-title').count()).toBe(0);
    await stopWaiting(page);
    expect(await page.inputValue('#amount')).toBe('');
    expect((await records(shop)).till.map((p) => p.state)).toEqual(['not_sent', 'not_sent']);

    // The service listens again: the next sale goes through, and the two not sent never do.
    await serviceGate.set({ kind: 'pass' });
    await sell(page, '13', '0241230193');
    await expectResult('PAID', 'GH₵13.00');
    for (const n of ['233241230191', '233241230192']) expect(await prompts(n)).toBe(0);
    expect(await prompts('233241230193')).toBe(1);
    await expectRecordsAgree();
    expect((await records(shop)).till.map((p) => p.state)).toEqual(['not_sent', 'not_sent', 'success']);
  });

  it('a slow service and a slow customer: the sale waits and ends PAID once, at the amount typed', async () => {
    const { page, serviceGate, clock } = shop;
    await serviceGate.set({ kind: 'delay', ms: 600 });
    clock.hold();
    typed.push('12.50');
    await sellToWaiting(page, '12.50', '0241230006'); // 06: the customer answers after 30 s of service time
    await expect.poll(() => serviceStatus('233241230006')).toBe('PENDING');
    clock.release();
    clock.advance(30_000);
    await expectResult('PAID', 'GH₵12.50');
    expect(await prompts('233241230006')).toBe(1);
    await expectRecordsAgree();
  });

  it('the till paused (SIGSTOP) while the customer declines: once it runs again it shows NOT PAID, as the service', async () => {
    const { page, till, clock } = shop;
    clock.hold();
    typed.push('9.00');
    await sellToWaiting(page, '9', '0241230001'); // 01: the customer declines
    till.pause();
    clock.release();
    await expect.poll(() => serviceStatus('233241230001')).toBe('FAILED');
    till.resume();
    await expectResult('NOT PAID', 'GH₵9.00');
    expect(await prompts('233241230001')).toBe(1);
    await expectRecordsAgree();
  });
});

describe('a till with staff under faults', () => {
  const AMA = '2580';

  it('kill -9 mid-charge: results that land while the till is down and while it waits at the lock show to Ama once she signs in', async () => {
    const { page, clock } = shop;
    await check.staffTheTill(shop, [{ name: 'Ama', role: 'cashier', pin: AMA }]);
    await signIn(page, AMA, 'Ama');
    clock.hold(); // both customers have their prompt and have not answered yet
    typed.push('15.00', '16.00');
    await sellToWaiting(page, '15', '0241230015');
    await stopWaiting(page); // Ama stops waiting for the first: it stays open
    await sellToWaiting(page, '16', '0241230006'); // 06: this customer answers 30 s later
    await expect.poll(() => prompts('233241230006')).toBe(1);
    await shop.restartAfterKill(() => clock.release()); // the first customer approves while the till is dead
    await expect.poll(() => serviceStatus('233241230015')).toBe('SUCCESS');
    await page.getByRole('heading', { name: 'Who is selling?' }).waitFor();
    clock.advance(30_000); // the second approves while the till waits at the lock
    await expect.poll(() => serviceStatus('233241230006')).toBe('SUCCESS');
    await expect.poll(async () => (await records(shop)).till.map((p) => p.state)).toEqual(['success', 'success']);
    await signIn(page, AMA, 'Ama');
    const notice = page.getByTestId('late-notice');
    await expect
      .poll(() => text(page, 'late-notice'))
      .toMatch(/^PAID: GH₵16\.00 from 024 123 0006 \(open when the till stopped; started by Ama\) — 1 more/);
    await notice.getByRole('button', { name: /Dismiss/ }).click();
    await expect
      .poll(() => text(page, 'late-notice'))
      .toMatch(/^PAID: GH₵15\.00 from 024 123 0015 \(open when the till stopped; started by Ama/);
    expect(await page.inputValue('#amount')).toBe('');
    expect(await prompts('233241230015')).toBe(1);
    expect(await prompts('233241230006')).toBe(1);
    await expectRecordsAgree();
  });

  it('two cashiers and two tills on one relay: the same number and amount is asked about, naming who and where; each Z says whose it is', async () => {
    const { page, relayGate, clock } = shop;
    const KOFI = '4826';
    await check.staffTheTill(shop, [
      { name: 'Ama', role: 'cashier', pin: AMA },
      { name: 'Kofi', role: 'cashier', pin: KOFI },
    ]);
    await signIn(page, AMA, 'Ama');
    /** Kofi's sale of what an earlier payment asked for: the question names who started it and where; he goes back. */
    const kofiIsAsked = async (cedis: string, phone: string, startedBy: RegExp) => {
      // Over what the form still holds from the last question.
      await retype(page, 'amount', cedis);
      await retype(page, 'phone', phone);
      await page.keyboard.press('Enter');
      const question = page.getByTestId('confirm-charge');
      await question.waitFor();
      expect(await text(page, 'confirm-started-by')).toMatch(startedBy);
      await enter(page); // No, go back
      await question.waitFor({ state: 'detached' });
    };
    // The relay is down: the service approves Ama's charge and no result can reach the till.
    await relayGate.set({ kind: 'refuse' });
    await expect.poll(() => text(page, 'relay-state')).toMatch(/reconnecting|offline/);
    typed.push('10.00', '12.00');
    await sellToWaiting(page, '10', '0245551021');
    await expect.poll(() => serviceStatus('233245551021')).toBe('SUCCESS');
    await stopWaiting(page);
    await switchTo(page, KOFI, 'Kofi');
    await kofiIsAsked('10', '0245551021', /^Started by Ama at this till/);
    await relayGate.set({ kind: 'pass' });
    clock.advance(60_000);
    await expect.poll(async () => (await records(shop)).till.map((p) => p.state)).toEqual(['success']);

    // The shop's other till sells GH₵12 to another number: PAID there, and its result reaches this till too.
    const back = await shop.secondTill('Back counter');
    await back.invoke('payments:charge', { requestId: 'back-counter-1', amount: '12.00', msisdn: '0245551022', network: 'MTN' });
    await expect.poll(() => serviceStatus('233245551022')).toBe('SUCCESS');
    await expect
      .poll(
        async () => (await shop.till.invoke<{ earlier: unknown }>('payments:similar', { msisdn: '0245551022', amount: '12.00' })).earlier,
      )
      .not.toBeNull();
    await kofiIsAsked('12', '0245551022', /^Started by Owner at another till \(Back counter\)/);
    for (const n of ['233245551021', '233245551022']) expect(await prompts(n)).toBe(1);
    await expectRecordsAgree();

    // Each till's Z sums the shop's results as that till received them, and says so; the close warns first.
    const backZ = (
      await back.invoke<{ report: { receivedBy: { tillName: string }; otherTills: string[] } }>('day:close', { lastNumber: 0 })
    ).report;
    expect(backZ.receivedBy.tillName).toBe('Back counter');
    expect(backZ.otherTills).toHaveLength(1);
    await switchTo(page, OWNER_PIN, 'Owner');
    await page.getByRole('button', { name: 'Day close', exact: true }).click();
    await page.getByTestId('day-close').click();
    await expect
      .poll(() => text(page, 'day-confirm-warning'))
      .toMatch(/^Back counter also receives these results: a Z closed there counts the same payments/);
    await page.getByTestId('day-confirm-close').click();
    await expect
      .poll(() => text(page, 'day-scope'))
      .toMatch(/^Shop total, as received by (?!Back counter).+ — not to be added to other tills' Zs/);
    expect(await text(page, 'day-warning')).toMatch(/^Back counter also receives these results/);
    expect(backZ.otherTills[0]).toBe((await shop.till.invoke<{ tillName: string }>('settings:get', {})).tillName);
  });

  it('a PIN typed at the lock never reaches the sale behind it: after Switch, the idle lock, and a result the relay brings under the lock', async () => {
    const { page, till, relayGate } = shop;
    await check.staffTheTill(shop, [{ name: 'Ama', role: 'cashier', pin: AMA }]);
    await signIn(page, AMA, 'Ama');
    /** At the lock with a PAID result behind it: the PIN goes whole to the sign-in, and the result's New sale is empty. */
    const pinAtTheLock = async (amount: string) => {
      await page.getByRole('heading', { name: 'Who is selling?' }).waitFor({ timeout: 15_000 });
      await focused(page, 'sign-in-pin');
      await page.keyboard.type(AMA);
      await page.keyboard.press('Enter');
      await expect.poll(() => text(page, 'signed-in')).toContain('Ama');
      expect(await page.getByTestId('sign-in-error').count()).toBe(0);
      await expectResult('PAID', amount);
      await enter(page); // New sale
      await focused(page, 'amount');
      expect(await page.inputValue('#amount')).toBe('');
    };
    typed.push('5.00', '6.00', '7.00');
    await sell(page, '5', '0241230151');
    await expectResult('PAID', 'GH₵5.00');
    await switchPerson(page);
    await pinAtTheLock('GH₵5.00');

    await sell(page, '6', '0241230161');
    await expectResult('PAID', 'GH₵6.00');
    await till.setAhead(16 * 60_000); // nobody touches the till for a while: the idle lock falls
    await pinAtTheLock('GH₵6.00');

    await relayGate.set({ kind: 'refuse' });
    await sellToWaiting(page, '7', '0241230171'); // the result cannot reach the till until the relay is back
    await switchPerson(page);
    await relayGate.set({ kind: 'pass' });
    shop.clock.advance(60_000); // the service's delivery, retried, reaches the relay; the result lands under the lock
    await page.getByTestId('result-title').waitFor({ state: 'attached', timeout: 30_000 });
    await pinAtTheLock('GH₵7.00');
    for (const n of ['233241230151', '233241230161', '233241230171']) expect(await prompts(n)).toBe(1);
    await expectRecordsAgree();
  });

  it('kill -9 while the service is unreachable and the next start 14 hours later: the charge is never sent, and Ama is told so', async () => {
    const { page, serviceGate, till } = shop;
    await check.staffTheTill(shop, [{ name: 'Ama', role: 'cashier', pin: AMA }]);
    await signIn(page, AMA, 'Ama');
    // Each connection is cut as it opens: the till cannot tell whether its request got through.
    await serviceGate.set({ kind: 'reset' });
    typed.push('10.00');
    await sell(page, '10', '0241230181');
    await page.locator('.waiting-screen').waitFor();
    await expect.poll(async () => (await records(shop)).till.map((p) => p.state)).toEqual(['uncertain']);
    await shop.restartAfterKill(async () => {
      await serviceGate.set({ kind: 'pass' }); // the network is back by morning
      await till.setAhead(14 * 60 * 60_000);
    });
    await signIn(page, AMA, 'Ama');
    await expect
      .poll(() => text(page, 'late-notice'))
      .toMatch(
        /^NO ANSWER \(it may have reached the payment service: a result will show here\): GH₵10\.00 from 024 123 0181 \(open when the till stopped; started by Ama\)/,
      );
    expect(await page.inputValue('#amount')).toBe('');
    expect((await records(shop)).till.map((p) => p.state)).toEqual(['unconfirmed']);
    expect(await prompts('233241230181')).toBe(0);
    await expectRecordsAgree();
  });
});
