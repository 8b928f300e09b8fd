/** Test helpers for the sandbox integration tests: a webhook receiver on loopback, API calls, polling. */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../../sandbox/server.js';
import { removeDir, tempDir } from '../../support/temp-dir.js';

export type Received = { path: string; headers: IncomingHttpHeaders; raw: Buffer; at: number };

/** Decides the answer to the n-th (1-based) request on a path; 'hang' never answers. */
export type Responder = (n: number, received: Received) => number | 'hang';

export async function startReceiver(responder: Responder = () => 200) {
  const received: Received[] = [];
  const counts = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const item = { path, headers: req.headers, raw: Buffer.concat(chunks), at: performance.now() };
      received.push(item);
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const answer = responder(n, item);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    on: (path: string) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type Creds = { merchantId: string; secret: string };

export async function api(
  baseUrl: string,
  path: string,
  options: { creds?: Creds; headers?: Record<string, string>; body?: unknown; rawBody?: string; method?: string } = {},
  // Tests read arbitrary answer shapes and assert them field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; json: any; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.creds) {
    headers.authorization = `Bearer ${options.creds.secret}`;
    headers['x-service-merchant-id'] = options.creds.merchantId;
  }
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const res = await fetch(baseUrl + path, { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json, headers: res.headers };
}

export function dashboard(baseUrl: string, path: string, body?: unknown) {
  return api(baseUrl, `/dashboard/api${path}`, {
    body:
      body ??
      (path.endsWith('/revoke') || path.endsWith('/replay') || path.endsWith('/authorise') || path.endsWith('/decline') ? {} : undefined),
    headers: { 'x-sandbox-dashboard': '1' },
  });
}

export function paymentBody(callbackUrl: string, msisdn = '233241234567', extra: Record<string, unknown> = {}) {
  return { amount: '12.50', callbackUrl, customer: { msisdn, network: 'MTN' }, description: 'Bread and milk', ...extra };
}

/** Independent check of X-Service-Signature with Node's crypto (not the project's helper). */
export function signatureValid(secret: string, received: Received, signedPayload: 'body' | 'timestamp.body' = 'body'): boolean {
  const header = String(received.headers['x-service-signature'] ?? '');
  if (!header.startsWith('v1=')) return false;
  const hmac = createHmac('sha256', secret);
  if (signedPayload === 'timestamp.body') hmac.update(`${String(received.headers['x-service-timestamp'])}.`);
  hmac.update(received.raw);
  const expected = hmac.digest();
  const given = Buffer.from(header.slice(3), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const quietLog = () => undefined;

export type SandboxWithReceiver = { sandbox: SandboxHandle; receiver: Awaited<ReturnType<typeof startReceiver>>; creds: Creds };

/** A sandbox (its demo merchant's TEST key as `creds`) and a webhook receiver, started before the file's tests and closed after them. */
export function useSandboxWithReceiver(options: SandboxOptions): SandboxWithReceiver {
  const env = {} as SandboxWithReceiver;
  beforeAll(async () => {
    env.sandbox = await startSandbox({ log: quietLog, ...options });
    env.receiver = await startReceiver();
    env.creds = { merchantId: env.sandbox.merchantId, secret: env.sandbox.keys.test.secret };
  });
  afterAll(async () => {
    await env.sandbox?.close();
    await env.receiver?.close();
  });
  return env;
}

export type RestartableSandbox = {
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  dataDir: string;
  /** Every sandbox started so far, the latest last. */
  handles: SandboxHandle[];
  /** Starts a sandbox on the file's data folder (again after a close: a restart); every one is closed after the file. */
  start: () => Promise<SandboxHandle>;
};

/** A webhook receiver and a data folder kept across sandbox restarts, for the tests of what survives a restart. */
export function useRestartableSandbox(name: string, timeScale: number, responder?: Responder): RestartableSandbox {
  const handles: SandboxHandle[] = [];
  const env = { handles } as RestartableSandbox;
  beforeAll(async () => {
    env.dataDir = tempDir(name);
    env.receiver = await startReceiver(responder);
  });
  afterAll(async () => {
    for (const h of handles) await h.close();
    await env.receiver?.close();
    removeDir(env.dataDir);
  });
  env.start = async () => {
    const h = await startSandbox({ dataDir: env.dataDir, timeScale, log: quietLog });
    handles.push(h);
    return h;
  };
  return env;
}
