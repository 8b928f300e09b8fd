/**
 * Login CSRF on the owner's phone page, in Debian's Chromium: the owner's page is open on their link;
 * a page on another site (another origin on loopback) auto-submits a form to the relay's sign-in with
 * the attacker's link token; the owner's page, opened again, still shows the owner's link, not the
 * attacker's (an attacker's shop would show payments the owner never received).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { useOwnerRelay } from '../browser-bridge/owner-relay.js';

const owner = useOwnerRelay('owner-cross-site');
let attacker: Server;
let attackerUrl = '';

afterAll(async () => {
  await new Promise((resolve) => (attacker ? attacker.close(resolve) : resolve(undefined)));
});

it("another site's auto-submitted form cannot sign the owner's phone in to the attacker's link", async () => {
  const mine = await owner.link("Auntie Efua's phone", 'live');
  const planted = await owner.link('Attacker shop', 'test');
  // The attacker's page: a text/plain form whose body reads as JSON ({"token":"ov_…","x":"="}), posted at once.
  const form =
    `<!doctype html><form id="f" method="POST" enctype="text/plain" action="${owner.url()}/v1/owner/session">` +
    `<input type="hidden" name='{"token":"${planted.token}","x":"' value='"}'></form>` +
    `<script>document.getElementById('f').submit()</script>`;
  attacker = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(form));
  await new Promise<void>((resolve) => attacker.listen(0, 'localhost', resolve));
  attackerUrl = `http://localhost:${(attacker.address() as AddressInfo).port}/`;
  expect(new URL(attackerUrl).origin).not.toBe(new URL(owner.url()).origin);

  const context = await owner.browser().newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await page.goto(mine.url);
  await page.locator('#view').waitFor({ state: 'visible' });
  expect(await page.locator('#title').textContent()).toBe("Takings · Auntie Efua's phone");

  const evil = await context.newPage();
  const answered = evil.waitForResponse((r) => r.url().endsWith('/v1/owner/session'));
  await evil.goto(attackerUrl);
  const status = (await answered).status();
  await evil.close();

  await page.goto(`${owner.url()}/owner`);
  await page.locator('#view').waitFor({ state: 'visible' });
  expect(await page.locator('#title').textContent()).toBe("Takings · Auntie Efua's phone");
  expect(await page.locator('#sandbox').isVisible()).toBe(false);
  expect(status).toBe(403);
  await context.close();
});
