/** Real sandbox + real relay on loopback, real SQLite, the real keychain: the till core's opponents. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startSandbox } from '../../../sandbox/server.js';
import { startRelay } from '../../../relay/http/index.js';
import { createRelayToken, parseRelayConfig } from '../../../relay/ops/index.js';
import { createTillCore, type TillCore, type TillCoreOptions } from '../../../electron/core/index.js';
import { HeldClock } from '../../support/held-clock.js';
import type { IpcEvent, IpcEventPayload, PaymentView } from '../../../shared/ipc/contract.js';

export const TIME_SCALE = 0.01;

export type Services = Awaited<ReturnType<typeof startServices>>;

export async function startServices(root: string) {
  // Held by a test that needs a customer's answer to wait (it must not race a slow machine).
  const clock = new HeldClock();
  const sandbox = await startSandbox({ dataDir: join(root, 'sandbox'), timeScale: TIME_SCALE, clock, log: () => {} });
  const { token, tokenHash } = createRelayToken();
  const config = parseRelayConfig({
    keys: [sandbox.keys.test, sandbox.keys.live],
    tills: [{ label: 'till-under-test', tokenHash }],
    signedPayload: 'body',
    heartbeatSeconds: 1,
  });
  const relayDir = join(root, 'relay');
  let relay = await startRelay({ dataDir: relayDir, config, log: () => {} });
  const port = Number(new URL(relay.url).port);
  return {
    sandbox,
    clock,
    token,
    config,
    /** Replace the running relay's config (e.g. to revoke the till's token). */
    setRelayConfig(next: typeof config) {
      relay.setConfig(next);
    },
    get relay() {
      return relay;
    },
    async restartRelay(downMs: number) {
      await relay.close();
      await new Promise((r) => setTimeout(r, downMs));
      relay = await startRelay({ port, dataDir: relayDir, config, log: () => {} });
    },
    async stopRelay() {
      await relay.close();
    },
    async startRelayAgain() {
      relay = await startRelay({ port, dataDir: relayDir, config, log: () => {} });
    },
    async close() {
      await relay.close().catch(() => undefined);
      await sandbox.close();
    },
  };
}

export type LoggedCore = TillCore & { lines: Array<Record<string, unknown>>; dataDir: string };

export async function openCore(dataDir: string, extra: Partial<TillCoreOptions> = {}): Promise<LoggedCore> {
  const lines: Array<Record<string, unknown>> = [];
  const core = await createTillCore({
    dataDir,
    embedded: false,
    retryDelaysMs: [100, 200, 400],
    relay: { initialBackoffMs: 50, maxBackoffMs: 400 },
    log: (line) => lines.push(line),
    ...extra,
  });
  return Object.assign(core, { lines, dataDir });
}

export const PIN = '2468';

/** First run as an owner would do it: PIN, then TEST settings pointing at the real sandbox and relay. */
export async function configureTest(core: TillCore, services: Services, secretKey = services.sandbox.keys.test.secret): Promise<void> {
  const status = await core.invoke('app:status', {});
  if (!status.pinSet) await core.invoke('owner:setPin', { pin: PIN });
  else await core.invoke('owner:unlock', { pin: PIN });
  await core.invoke('settings:save', {
    environment: 'test',
    values: {
      baseUrl: services.sandbox.baseUrl,
      merchantId: services.sandbox.merchantId,
      publicKeyId: services.sandbox.keys.test.publicId,
      secretKey,
      relayUrl: services.relay.url,
      relayToken: services.token,
    },
  });
}

/** Resolves with the first event payload that satisfies `match`. */
export function waitForEvent<E extends IpcEvent>(
  core: TillCore,
  event: E,
  match: (p: IpcEventPayload<E>) => boolean,
  timeoutMs = 10_000,
): Promise<IpcEventPayload<E>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for ${event}`));
    }, timeoutMs);
    const off = core.on(event, (payload) => {
      if (match(payload)) {
        clearTimeout(timer);
        off();
        resolve(payload);
      }
    });
  });
}

/** Polls payments:get until the payment reaches one of `states`. */
export async function waitForState(core: TillCore, id: string, states: string[], timeoutMs = 10_000): Promise<PaymentView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const p = await core.invoke('payments:get', { id });
    if (p && states.includes(p.state)) return p;
    if (Date.now() > deadline) throw new Error(`payment ${id} stayed ${p?.state}, wanted ${states.join('/')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

let requestCounter = 0;
export function requestId(): string {
  requestCounter += 1;
  return `req-${process.pid}-${Date.now()}-${requestCounter}`;
}

/** A valid MTN number ending in the given two digits (the sandbox picks its outcome from them). */
export function msisdnEnding(suffix: string, seed = 0): string {
  return `024${String(50000 + seed).slice(-5)}${suffix}`;
}

/** Starts an MTN sale on `core` and returns its payment; a refused charge fails the test with its message. */
export async function startSale(core: TillCore, msisdn: string, amount: string, description?: string): Promise<PaymentView> {
  const result = await core.invoke('payments:charge', {
    requestId: requestId(),
    amount,
    msisdn,
    network: 'MTN',
    ...(description === undefined ? {} : { description }),
  });
  if (!result.ok) throw new Error(`charge refused: ${result.message}`);
  return result.payment;
}

/** The sandbox's own records (its dashboard JSON API). */
export async function sandboxTransactions(services: Services): Promise<Array<Record<string, unknown>>> {
  const res = await fetch(`${services.sandbox.baseUrl}/dashboard/api/transactions`);
  return ((await res.json()) as { data: Array<Record<string, unknown>> }).data;
}

export async function sandboxPost(services: Services, path: string, body: unknown = {}): Promise<Record<string, unknown>> {
  const res = await fetch(`${services.sandbox.baseUrl}/dashboard/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sandbox-dashboard': '1' },
    body: JSON.stringify(body),
  });
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

/** Every file under dir, recursively, with its bytes. */
export function allFiles(dir: string): Array<{ path: string; bytes: Buffer }> {
  const out: Array<{ path: string; bytes: Buffer }> = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...allFiles(path));
    else out.push({ path, bytes: readFileSync(path) });
  }
  return out;
}

/**
 * A loopback proxy in front of the sandbox. `hold(n)` makes the n-th initialize's answer wait
 * `ms` before it is passed on (the sandbox has already done the work); every initialize body is recorded.
 */
export async function startProxy(target: string) {
  const bodies: string[] = [];
  const holds = new Map<number, number>();
  let initializeCount = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const isInit = req.url === '/v1/payments/initialize';
      let holdMs = 0;
      if (isInit) {
        initializeCount += 1;
        bodies.push(body.toString('utf8'));
        holdMs = holds.get(initializeCount) ?? 0;
      }
      const url = new URL(req.url ?? '/', target);
      const upstream = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (up) => {
        const parts: Buffer[] = [];
        up.on('data', (c: Buffer) => parts.push(c));
        up.on('end', () => {
          setTimeout(() => {
            if (res.destroyed) return;
            res.writeHead(up.statusCode ?? 502, up.headers);
            res.end(Buffer.concat(parts));
          }, holdMs);
        });
      });
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    hold(n: number, ms: number) {
      holds.set(n, ms);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
