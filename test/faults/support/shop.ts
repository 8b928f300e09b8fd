/**
 * A shop under faults: the payment service (the sandbox, on a clock the test moves) and the relay, each
 * behind a gate, the till core in its own process pointed at the gates, and the real screens in
 * Chromium talking to that process. `agree` compares the till's records with the service's own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { startSandbox, type SandboxHandle } from '../../../sandbox/server.js';
import { startRelay, type RunningRelay } from '../../../relay/http/index.js';
import { createRelayToken, parseRelayConfig } from '../../../relay/ops/index.js';
import { parseAmount } from '../../../shared/money.js';
import { installMomoBridge } from '../../browser-bridge/init-script.js';
import { serveRenderer, type StaticServer } from '../../browser-bridge/static-server.js';
import { sandboxTransactions, type SandboxTransaction } from '../../browser-bridge/sandbox-api.js';
import { startGate, type Gate } from './gate.js';
import { MovableClock } from './movable-clock.js';
import { TillProcess, type TillProcessOptions } from './till-process.js';

/** The simulator at a tenth of real time, as the browser tests: a customer answers in 0.2 s. */
export const TIME_SCALE = 0.1;
export const OWNER_PIN = '1357';

export type Shop = {
  page: Page;
  till: TillProcess;
  clock: MovableClock;
  sandbox: SandboxHandle;
  relay: RunningRelay;
  /** In front of the payment service (the till's calls to it). */
  serviceGate: Gate;
  /** In front of the relay (the till's stream of results, and the service's deliveries to it). */
  relayGate: Gate;
  dataDir: string;
  /** The service's and the relay's last log lines, oldest first (shown when a scenario fails). */
  serviceLog: string[];
  /** Every till's data folder, this one's first. */
  tillDataDirs: string[];
  /**
   * Another till of the same shop on the same relay (and gates), set up as the first, named `name`; the
   * test drives it through its back door (no screens). Its payments count in `records`.
   */
  secondTill(name: string): Promise<TillProcess>;
  /** kill -9 of the till, then a new start on the same data folder and the page loaded again (the app reopened). */
  restartAfterKill(before?: () => Promise<void> | void): Promise<void>;
  close(): Promise<void>;
};

export type Records = { till: TillRow[]; service: SandboxTransaction[] };
type TillRow = { id: string; merchant_ref: string; state: string; amount: number; msisdn: string };

export async function openShop(browser: Browser, rendererDir: string, tuning: Partial<TillProcessOptions> = {}): Promise<Shop> {
  const root = mkdtempSync(join(tmpdir(), 'momo-faults-'));
  const clock = new MovableClock();
  const serviceLog: string[] = [];
  const keep = (from: string) => (line: Record<string, unknown>) => {
    serviceLog.push(`${from} ${JSON.stringify(line)}`);
    if (serviceLog.length > 200) serviceLog.shift();
  };
  const sandbox = await startSandbox({
    port: 0,
    dataDir: join(root, 'sandbox'),
    timeScale: TIME_SCALE,
    clock,
    signedPayload: 'body',
    log: keep('service'),
  });
  const token = createRelayToken();
  const secondToken = createRelayToken();
  const config = parseRelayConfig({
    keys: [sandbox.keys.test],
    tills: [
      { label: 'till-under-faults', tokenHash: token.tokenHash },
      { label: 'second-till', tokenHash: secondToken.tokenHash },
    ],
    signedPayload: 'body',
    heartbeatSeconds: 1,
  });
  const relay = await startRelay({ port: 0, host: '127.0.0.1', dataDir: join(root, 'relay'), config, log: keep('relay') });
  const serviceGate = await startGate({ port: Number(new URL(sandbox.baseUrl).port) });
  const relayGate = await startGate({ port: Number(new URL(relay.url).port) });

  const dataDir = join(root, 'till');
  const tillOptions = (folder: string): TillProcessOptions => ({
    dataDir: folder,
    retryDelaysMs: [200, 500, 1_000],
    // The relay beats every second here: a stream silent for 4 s is broken.
    relay: { initialBackoffMs: 100, maxBackoffMs: 500, heartbeatTimeoutMs: 4_000 },
    http: { connectTimeoutMs: 1_000, responseTimeoutMs: 2_000 },
    ...tuning,
  });
  /** The owner's first setup, through the back door: TEST on this service and relay, as typed in Settings. */
  const setUp = async (process: TillProcess, relayToken: string) => {
    await process.start();
    await process.invoke('owner:setPin', { pin: OWNER_PIN });
    await process.invoke('settings:save', {
      environment: 'test',
      values: {
        baseUrl: serviceGate.url,
        merchantId: sandbox.merchantId,
        publicKeyId: sandbox.keys.test.publicId,
        secretKey: sandbox.keys.test.secret,
        relayUrl: relayGate.url,
        relayToken,
      },
    });
  };
  const till = new TillProcess(tillOptions(dataDir));
  await setUp(till, token.token);
  await till.invoke('owner:lock', {});
  const others: TillProcess[] = [];
  const tillDataDirs = [dataDir];

  const server: StaticServer = await serveRenderer(rendererDir);
  const origin = new URL(server.url).origin;
  const context = await browser.newContext({ viewport: { width: 1024, height: 600 } });
  const page = await context.newPage();
  await page.exposeBinding('__momoInvoke', async (source, channel: string, payload: unknown) => {
    if (new URL(source.frame.url()).origin !== origin)
      return { ok: false, error: { code: 'FORBIDDEN_SENDER', message: 'This window may not call the till.' } };
    return till.answer(channel, payload);
  });
  await page.addInitScript(installMomoBridge);
  till.onEvent((event, payload) => {
    page
      .evaluate(([e, p]) => (window as unknown as { __momoEmit?: (e: string, p: unknown) => void }).__momoEmit?.(e, p), [
        event,
        payload,
      ] as const)
      .catch(() => undefined);
  });
  await page.goto(server.url);

  return {
    page,
    till,
    clock,
    sandbox,
    relay,
    serviceGate,
    relayGate,
    dataDir,
    serviceLog,
    tillDataDirs,
    async secondTill(name) {
      const folder = join(root, `till-${others.length + 2}`);
      const second = new TillProcess(tillOptions(folder));
      others.push(second);
      tillDataDirs.push(folder);
      await setUp(second, secondToken.token);
      const { timeZone } = await second.invoke<{ timeZone: string }>('settings:get', {});
      await second.invoke('settings:saveTill', { tillName: name, timeZone });
      return second;
    },
    async restartAfterKill(before) {
      await till.kill();
      await before?.();
      await till.start();
      await page.reload();
    },
    async close() {
      clock.release();
      await context.close().catch(() => undefined);
      await till.stop();
      for (const other of others) await other.stop();
      await server.close();
      await serviceGate.close();
      await relayGate.close();
      await relay.close();
      await sandbox.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The shop's payments (each till's SQLite file, read-only while its core runs) and the service's, as each keeps them. */
export async function records(shop: Shop): Promise<Records> {
  const till = shop.tillDataDirs.flatMap((folder) => {
    const db = new Database(join(folder, 'till.db'), { readonly: true, fileMustExist: true });
    try {
      return db
        .prepare("SELECT id, merchant_ref, state, amount, msisdn FROM payments WHERE environment = 'test' ORDER BY created_at")
        .all() as TillRow[];
    } finally {
      db.close();
    }
  });
  return { till, service: await sandboxTransactions(shop.sandbox.baseUrl) };
}

const SAME: Record<string, string> = { success: 'SUCCESS', failed: 'FAILED' };

/**
 * Where the till's records and the service's disagree (an empty list when they agree): every payment
 * the service has is the till's, one for one, in the same state and amount; the service prompted at
 * most once per sale; no amount on either side is one the cashier did not type; a payment the service
 * never saw is not PAID at the till.
 */
export function disagreements({ till, service }: Records, typed: string[]): string[] {
  const out: string[] = [];
  const typedPesewas = new Set(typed.map((t) => parseAmount(t)));
  const byRef = new Map(till.map((p) => [p.merchant_ref, p]));
  const seen = new Map<string, number>();
  for (const tx of service) {
    const ref = tx.clientReference ?? '(none)';
    seen.set(ref, (seen.get(ref) ?? 0) + 1);
    const amount = parseAmount(tx.amount);
    if (!typedPesewas.has(amount)) out.push(`the service has ${tx.amount}, which the cashier never typed`);
    const mine = byRef.get(ref);
    if (!mine) {
      out.push(`the service has ${tx.reference} (${tx.status}, ${tx.amount}) that the till does not`);
      continue;
    }
    if (mine.amount !== amount) out.push(`${ref}: the till says ${mine.amount} pesewas, the service ${tx.amount}`);
    const expected = SAME[mine.state];
    if (tx.status === 'PENDING' ? expected !== undefined : expected !== tx.status)
      out.push(`${ref}: the till says ${mine.state}, the service ${tx.status}`);
  }
  for (const [ref, count] of seen) if (count > 1) out.push(`${ref}: prompted ${count} times at the service`);
  for (const p of till) {
    if (!typedPesewas.has(p.amount)) out.push(`the till has ${p.amount} pesewas, which the cashier never typed`);
    if (!seen.has(p.merchant_ref) && p.state === 'success') out.push(`${p.merchant_ref}: PAID at the till, unknown to the service`);
  }
  return out;
}
