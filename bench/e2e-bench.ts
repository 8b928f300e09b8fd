/**
 * End to end at the counter: sandbox sales typed at the keyboard in Chromium (the built renderer over
 * browser mode's real HTTP transport: launch link, session cookie, POST /momo/invoke and the event
 * stream; the real till core with its embedded sandbox and relay on loopback), timing each
 * from the sandbox SENDING its webhook (the delivery attempt's started_at, taken just before the POST)
 * to PAID being on screen (the first animation frame after the result heading appears, read with
 * Date.now() in the page). Both are this machine's wall clock.
 *   npm run bench:e2e [-- --sales 200] [-- --max-seconds 600]
 * Last line: {"sales":n,"p50Ms":…,"p99Ms":…}
 */
import { rmSync } from 'node:fs';
import { buildRenderer } from '../test/browser-bridge/build-renderer.js';
import { launchBrowser, openTill } from '../test/browser-bridge/harness.js';
import { enter, focused, resultTitle, sell, text } from '../test/browser-bridge/cashier.js';

const SALES = numberArg('--sales', 200);
const MAX_SECONDS = numberArg('--max-seconds', 600);
/** Approval in ~0.1 s instead of ~2 s (the webhook path itself is not scaled). */
const TIME_SCALE = 0.05;
const PHONE = '0241234567'; // the sandbox approves it

function numberArg(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at > 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} wants a positive whole number`);
  return value;
}

type Attempt = { startedAt: string; ok: boolean };
type Delivery = { reference: string; attempts: Attempt[] };

async function sentAt(sandboxUrl: string, reference: string): Promise<number> {
  const res = await fetch(new URL('/dashboard/api/deliveries', sandboxUrl));
  if (!res.ok) throw new Error(`sandbox deliveries: HTTP ${res.status}`);
  const { data } = (await res.json()) as { data: Delivery[] };
  const first = data.find((d) => d.reference === reference)?.attempts[0];
  if (!first?.ok) throw new Error(`no delivered webhook for ${reference}`);
  return Date.parse(first.startedAt);
}

/** In the page: remembers when each PAID heading first reached the DOM and the frame that painted it. */
function watchResults(): void {
  const w = window as unknown as { __paidAt: { dom: number; frame: number }[] };
  w.__paidAt = [];
  let seen: Element | null = null;
  new MutationObserver(() => {
    const title = document.querySelector('[data-testid="result-title"]');
    if (!title || title === seen || title.textContent !== 'PAID') return;
    seen = title;
    const mark = { dom: Date.now(), frame: 0 };
    w.__paidAt.push(mark);
    requestAnimationFrame(() => {
      mark.frame = Date.now();
    });
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function summary(values: number[]): { p50Ms: number; p99Ms: number; maxMs: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: sorted[sorted.length - 1] as number };
}

async function main(): Promise<void> {
  const [browser, rendererDir] = await Promise.all([launchBrowser(), buildRenderer()]);
  const till = await openTill(browser, rendererDir, { embeddedTimeScale: TIME_SCALE });
  const deadline = Date.now() + MAX_SECONDS * 1000;
  const domMs: number[] = [];
  const frameMs: number[] = [];
  try {
    const { page } = till;
    await page.evaluate(watchResults);
    await page.waitForFunction(() => /connected/.test(document.querySelector('[data-testid="relay-state"]')?.textContent ?? ''));
    for (let i = 0; i < SALES && Date.now() < deadline; i += 1) {
      // A different amount each time (GH₵2.00 up), so the double-prompt guard never asks.
      await sell(page, String(2 + i), PHONE);
      const title = await resultTitle(page);
      if (title !== 'PAID') throw new Error(`sale ${i + 1}: ${title}`);
      const reference = await text(page, 'result-reference');
      await page.waitForFunction((n) => (window as unknown as { __paidAt: { frame: number }[] }).__paidAt[n]?.frame, i);
      const mark = await page.evaluate((n) => (window as unknown as { __paidAt: { dom: number; frame: number }[] }).__paidAt[n], i);
      const sent = await sentAt(till.sandboxUrl(), reference);
      if (!mark) throw new Error(`sale ${i + 1}: PAID never observed`);
      domMs.push(mark.dom - sent);
      frameMs.push(mark.frame - sent);
      await enter(page); // New sale
      await focused(page, 'amount');
    }
  } finally {
    await till.close();
    await browser.close();
    rmSync(rendererDir, { recursive: true, force: true });
  }
  if (frameMs.length < SALES) console.log(`stopped at the ${MAX_SECONDS} s bound after ${frameMs.length} sales`);
  console.log(`PAID in the DOM: ${JSON.stringify(summary(domMs))}`);
  console.log(`PAID painted: ${JSON.stringify(summary(frameMs))}`);
  const painted = summary(frameMs);
  console.log(JSON.stringify({ sales: frameMs.length, p50Ms: painted.p50Ms, p99Ms: painted.p99Ms }));
}

await main();
