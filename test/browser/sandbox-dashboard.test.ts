/** The sandbox dashboard in Debian's Chromium: create and revoke a key (the API then answers 401), replay a delivery. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startSandbox, type SandboxHandle } from '../../sandbox/server.js';
import { api, paymentBody, quietLog, startReceiver } from '../integration/sandbox/helpers.js';
import { waitFor } from '../support/wait-for.js';
import { launchBrowser } from '../browser-bridge/harness.js';

let sandbox: SandboxHandle;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  // a long prompt time-out (12 s scaled) so the live prompt is still pending when the page shows its button
  sandbox = await startSandbox({ timeScale: 0.02, promptTimeoutMs: 600_000, log: quietLog });
  receiver = await startReceiver();
  browser = await launchBrowser();
  page = await browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('dialog', (dialog) => void dialog.accept());
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  await receiver?.close();
});

describe('sandbox dashboard', () => {
  it('creates a key (secret shown once), revokes it, and the API answers 401 on the next request', async () => {
    await page.goto(`${sandbox.baseUrl}/dashboard`);
    await page.locator(`tr[data-merchant="${sandbox.merchantId}"]`).waitFor();
    await page.getByRole('button', { name: 'Create test key' }).click();
    const secretBox = page.locator('#new-secret');
    await secretBox.waitFor({ state: 'visible' });
    const publicId = (await page.locator('#new-secret-public').textContent()) ?? '';
    const secret = (await page.locator('#new-secret-value').textContent()) ?? '';
    expect(publicId).toMatch(/^pk_test_/);
    expect(secret).toMatch(/^sk_test_/);
    const creds = { merchantId: sandbox.merchantId, secret };
    const resolvePath = '/v1/accounts/resolve?msisdn=233241234567&network=MTN';
    expect((await api(sandbox.baseUrl, resolvePath, { creds })).status).toBe(200);

    // shown once: after dismissing, the page no longer holds it anywhere
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await secretBox.waitFor({ state: 'hidden' });
    expect(await page.content()).not.toContain(secret);

    const row = page.locator(`tr[data-key="${publicId}"]`);
    await row.getByRole('button', { name: `Revoke ${publicId}` }).click();
    await row.getByText(/^Revoked/).waitFor();
    const res = await api(sandbox.baseUrl, resolvePath, { creds });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('UNAUTHENTICATED');
    // the demo key was not touched
    expect(
      (await api(sandbox.baseUrl, resolvePath, { creds: { merchantId: sandbox.merchantId, secret: sandbox.keys.test.secret } })).status,
    ).toBe(200);
  });

  it('replays a delivery: a new attempt appears and reaches the receiver', async () => {
    const init = await api(sandbox.baseUrl, '/v1/payments/initialize', {
      creds: { merchantId: sandbox.merchantId, secret: sandbox.keys.test.secret },
      body: paymentBody(`${receiver.url}/browser`),
    });
    expect(init.status).toBe(202);
    await waitFor(() => receiver.on('/browser').length === 1, 10_000, 'the first delivery');
    const delivery = await waitFor(async () => {
      const list = (await api(sandbox.baseUrl, '/dashboard/api/deliveries')).json.data as {
        id: string;
        reference: string;
        status: string;
      }[];
      return list.find((d) => d.reference === init.json.data.reference && d.status === 'DELIVERED');
    }, 5_000);

    const card = page.locator(`[data-delivery-id="${delivery.id}"]`);
    await card.locator('tr[data-attempt="1"]').waitFor(); // the page refreshes itself
    await expect(card.locator('tr[data-attempt]').count()).resolves.toBe(1);
    await card.getByRole('button', { name: 'Replay' }).click();
    const replayed = card.locator('tr[data-attempt="2"]');
    await replayed.waitFor();
    expect(await replayed.textContent()).toMatch(/2 \(replay\).*200/);
    expect(receiver.on('/browser')).toHaveLength(2);
    const hits = receiver.on('/browser');
    expect(hits[1]?.raw.equals(hits[0]?.raw as Buffer)).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('authorises a pending live prompt by its button', async () => {
    const init = await api(sandbox.baseUrl, '/v1/payments/initialize', {
      creds: { merchantId: sandbox.merchantId, secret: sandbox.keys.live.secret },
      body: paymentBody(`${receiver.url}/browser-live`, '233201234567'),
    });
    expect(init.status).toBe(202);
    const row = page.locator(`tr[data-reference="${init.json.data.reference}"]`);
    await row.getByRole('button', { name: 'Authorise' }).click();
    const hook = await waitFor(() => receiver.on('/browser-live')[0], 5_000, 'the live webhook');
    const body = JSON.parse(hook.raw.toString('utf8'));
    expect(body.data).toMatchObject({ reference: init.json.data.reference, status: 'SUCCESS', customer: { network: 'MTN' } });
    expect(body.data).not.toHaveProperty('sandbox');
    await row.getByText('SUCCESS').waitFor();
    await page.screenshot({ path: '/tmp/sandbox-dashboard.png', fullPage: true });
  });
});
