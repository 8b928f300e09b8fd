/**
 * Login CSRF on the owner's phone page, in Debian's Chromium: the owner's page is open on their link;
 * a page on another site (another origin on loopback) auto-submits a form to the relay's sign-in with
 * the attacker's link token; the owner's page, opened again, still shows the owner's link, not the
 * attacker's (an attacker's shop would show payments the owner never received).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startRelay, type RunningRelay } from '../../relay/http/index.js';
import { makeConfig, post } from '../integration/relay/helpers.js';
import { removeDir, tempDir } from '../support/temp-dir.js';
import { launchBrowser } from '../browser-bridge/harness.js';

let browser: Browser;
let relay: RunningRelay;
let attacker: Server;
let attackerUrl = '';
let dir: string;
let config: ReturnType<typeof makeConfig>;

async function link(label: string, environment: 'test' | 'live'): Promise<{ url: string; token: string }> {
  const res = await post(`${relay.url}/v1/owner-links`, JSON.stringify({ label, environment }), {
    authorization: `Bearer ${config.token}`,
  });
  const made = res.json as { path: string; token: string };
  return { url: `${relay.url}${made.path}`, token: made.token };
}

beforeAll(async () => {
  dir = tempDir('owner-cross-site');
  config = makeConfig();
  relay = await startRelay({ dataDir: dir, config: config.config, log: () => {} });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await relay?.close();
  await new Promise((resolve) => (attacker ? attacker.close(resolve) : resolve(undefined)));
  removeDir(dir);
});

it("another site's auto-submitted form cannot sign the owner's phone in to the attacker's link", async () => {
  const owner = await link("Auntie Efua's phone", 'live');
  const planted = await link('Attacker shop', 'test');
  // The attacker's page: a text/plain form whose body reads as JSON ({"token":"ov_…","x":"="}), posted at once.
  const form =
    `<!doctype html><form id="f" method="POST" enctype="text/plain" action="${relay.url}/v1/owner/session">` +
    `<input type="hidden" name='{"token":"${planted.token}","x":"' value='"}'></form>` +
    `<script>document.getElementById('f').submit()</script>`;
  attacker = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(form));
  await new Promise<void>((resolve) => attacker.listen(0, 'localhost', resolve));
  attackerUrl = `http://localhost:${(attacker.address() as AddressInfo).port}/`;
  expect(new URL(attackerUrl).origin).not.toBe(new URL(relay.url).origin);

  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await page.goto(owner.url);
  await page.locator('#view').waitFor({ state: 'visible' });
  expect(await page.locator('#title').textContent()).toBe("Takings · Auntie Efua's phone");

  const evil = await context.newPage();
  const answered = evil.waitForResponse((r) => r.url().endsWith('/v1/owner/session'));
  await evil.goto(attackerUrl);
  const status = (await answered).status();
  await evil.close();

  await page.goto(`${relay.url}/owner`);
  await page.locator('#view').waitFor({ state: 'visible' });
  expect(await page.locator('#title').textContent()).toBe("Takings · Auntie Efua's phone");
  expect(await page.locator('#sandbox').isVisible()).toBe(false);
  expect(status).toBe(403);
  await context.close();
});
