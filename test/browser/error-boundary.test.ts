/**
 * The till's error boundary in real Chromium: a screen that throws while rendering shows a plain
 * message the cashier can act on (role="alert", no stack, no error text), the focus is on "Back to
 * Charge", axe finds nothing, the console gets no part of the error's message, and the button brings
 * back a working Charge screen. The page (test/browser/error-boundary-page/) is built the same way as
 * the renderer (vite + the React plugin) and served with the app's Content-Security-Policy; no test
 * hook exists in the production code.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../browser-bridge/harness.js';
import { serveRenderer, type StaticServer } from '../browser-bridge/static-server.js';
import { axe } from '../browser-bridge/cashier.js';

// The message page.tsx throws (kept in step with it: importing the page here would pull its CSS into Node).
const [SECRET_KEY, , CUSTOMER] = 'sk_test_BoundaryLeakCheck0123456789 customer 0241234567'.split(' ') as [string, string, string];

let browser: Browser | undefined;
let server: StaticServer | undefined;
let outDir: string | undefined;
let page: Page;
const consoleLines: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'momo-error-boundary-'));
  const built = build({
    root: resolve(import.meta.dirname, 'error-boundary-page'),
    base: './',
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, reportCompressedSize: false },
  });
  [browser] = await Promise.all([launchBrowser(), built]);
  server = await serveRenderer(outDir);
  const context = await browser.newContext({ viewport: { width: 1024, height: 600 } });
  page = await context.newPage();
  page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(server.url);
  await page.getByRole('heading', { name: 'Charge' }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe('a screen that fails to render', () => {
  it('shows a plain, accessible message with the focus on "Back to Charge", and leaks nothing', async () => {
    await page.getByRole('button', { name: 'Open the broken screen' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect((await alert.innerText()).replace(/\s+/g, ' ').trim()).toBe(
      'Something went wrong on this screen. Your payments are safe. Back to Charge',
    );
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Back to Charge');
    const body = await page.locator('body').innerText();
    expect(body).not.toContain(SECRET_KEY);
    expect(body).not.toContain(CUSTOMER);
    expect(body).not.toMatch(/at \w+ \(|\.tsx?:\d+|Error:/); // no stack trace, no error text
    expect(await axe(page)).toEqual([]);

    // Logged as the error's class and component names only.
    expect(consoleLines.some((l) => l.startsWith('error: A screen failed to show (Error).'))).toBe(true);
    expect(consoleLines.join('\n')).not.toContain(SECRET_KEY.slice(8));
    expect(consoleLines.join('\n')).not.toContain(CUSTOMER);
    expect(pageErrors).toEqual([]);
  });

  it('"Back to Charge" (keyboard) brings back a working Charge screen', async () => {
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Charge' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByLabel('Amount').fill('12.50');
    expect(await page.getByLabel('Amount').inputValue()).toBe('12.50');
    // It can fail and recover again: the boundary was reset, not left spent.
    await page.getByRole('button', { name: 'Open the broken screen' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByRole('button', { name: 'Back to Charge' }).click();
    await page.getByRole('heading', { name: 'Charge' }).waitFor();
    expect(await page.getByLabel('Amount').inputValue()).toBe(''); // a fresh screen, not the broken tree
    expect(pageErrors).toEqual([]);
  });
});
