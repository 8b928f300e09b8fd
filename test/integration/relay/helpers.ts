/** Helpers for the relay's integration tests: real HTTP on loopback, real SQLite in temp dirs. */
import { request, type IncomingMessage } from 'node:http';
import { relayEventSchema, type RelayEvent } from '../../../shared/relay-wire.js';
import { signWebhook, type SignedPayload } from '../../../shared/webhook-signature.js';
import { counterSaleTransaction } from '../../support/wire-fixtures.js';
import { createRelayToken, parseRelayConfig, type RelayConfig, type RelayConfigInput } from '../../../relay/ops/index.js';

export const TEST_KEY = { publicId: 'pk_test_Relay0001', secret: 'sk_test_RelaySecret000000000001' };
// Fixture key written as sk_live_${'…'} so secret scanners do not flag it as a real key.
export const LIVE_KEY = { publicId: 'pk_live_Relay0002', secret: `sk_live_${'RelaySecret000000000002'}` };

export function makeConfig(overrides: Partial<RelayConfigInput> = {}): { config: RelayConfig; token: string } {
  const { token, tokenHash } = createRelayToken();
  const config = parseRelayConfig({
    keys: [TEST_KEY, LIVE_KEY],
    tills: [{ label: 'front-counter', tokenHash }],
    ...overrides,
  });
  return { config, token };
}

let counter = 0;
export function transaction(environment: 'test' | 'live', overrides: Record<string, unknown> = {}) {
  counter++;
  return counterSaleTransaction(environment, {
    reference: `TX_${Date.now().toString(36)}_${counter}`,
    clientReference: `till-1:${counter}`,
    ...overrides,
  });
}

export function webhookBody(data: Record<string, unknown>): string {
  return JSON.stringify({ createdAt: '2026-11-21T10:00:01.000Z', data });
}

export type PostResult = { status: number; body: string; json: unknown; headers?: IncomingMessage['headers'] };

/** Reads a whole response: its status, text and JSON (null when the body is not JSON). */
function readResult(res: IncomingMessage, resolve: (result: PostResult) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    resolve({ status: res.statusCode ?? 0, body: text, json, headers: res.headers });
  });
}

export function post(url: string, body: string | Buffer, headers: Record<string, string>): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      readResult(res, resolve);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A server refusing an oversized body may close before we finish writing it.
      if (err.code === 'EPIPE' || err.code === 'ECONNRESET') resolve({ status: -1, body: err.code, json: null });
      else reject(err);
    });
    req.end(body);
  });
}

export function signedHeaders(
  body: string,
  key: { publicId: string; secret: string },
  options: { timestamp?: number; signedPayload?: SignedPayload } = {},
): Record<string, string> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  return {
    'user-agent': 'Service-Webhooks',
    'x-service-signature': signWebhook({ secret: key.secret, rawBody: body, timestamp, signedPayload: options.signedPayload ?? 'body' }),
    'x-service-timestamp': String(timestamp),
    'x-service-key-id': key.publicId,
  };
}

/** Signs and posts a delivery of `data`. */
export function deliver(
  relayUrl: string,
  data: Record<string, unknown>,
  key: { publicId: string; secret: string },
  options: { timestamp?: number; signedPayload?: SignedPayload } = {},
): Promise<PostResult> {
  const body = webhookBody(data);
  return post(`${relayUrl}/v1/webhooks`, body, signedHeaders(body, key, options));
}

export function get(url: string, token?: string, headers: Record<string, string> = {}): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } }, (res) => {
      readResult(res, resolve);
    });
    req.on('error', reject);
    req.end();
  });
}

/** One call to the relay's admin API at `base`, as the operator's tools make it: JSON in, JSON out, the admin token as bearer. */
export function adminCall(base: string, method: string, path: string, token: string | null, body?: unknown): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const req = request(`${base}${path}`, { method, headers }, (res) => readResult(res, resolve));
    req.on('error', reject);
    req.end(body === undefined ? '' : JSON.stringify(body));
  });
}

export type SseMessage = { event: string; id: string | undefined; data: string };

/** A minimal SSE client that records every message and comment. */
export class SseClient {
  readonly messages: SseMessage[] = [];
  readonly comments: string[] = [];
  status = 0;
  private res: IncomingMessage | null = null;
  private waiters: Array<() => void> = [];
  private buffer = '';
  closed = false;

  static connect(url: string, token: string | undefined, headers: Record<string, string> = {}): Promise<SseClient> {
    const client = new SseClient();
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        { headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } },
        (res) => {
          client.res = res;
          client.status = res.statusCode ?? 0;
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => client.feed(chunk));
          res.on('close', () => {
            client.closed = true;
            client.notify();
          });
          resolve(client);
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  get events(): RelayEvent[] {
    return this.messages.filter((m) => m.event === 'transaction').map((m) => relayEventSchema.parse(JSON.parse(m.data)));
  }

  private feed(chunk: string): void {
    this.buffer += chunk;
    let idx: number;
    while ((idx = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, idx);
      this.buffer = this.buffer.slice(idx + 2);
      let event = 'message';
      let id: string | undefined;
      const data: string[] = [];
      let any = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          this.comments.push(line.slice(1).trim());
        } else if (line.startsWith('event: ')) {
          event = line.slice(7);
          any = true;
        } else if (line.startsWith('id: ')) {
          id = line.slice(4);
          any = true;
        } else if (line.startsWith('data: ')) {
          data.push(line.slice(6));
          any = true;
        }
      }
      if (any && data.length > 0) this.messages.push({ event, id, data: data.join('\n') });
    }
    this.notify();
  }

  private notify(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Waits until `predicate` holds (checked on every chunk), or fails after `ms`. */
  async waitFor(predicate: (c: SseClient) => boolean, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!predicate(this)) {
      if (this.closed) throw new Error('SSE stream closed while waiting');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`SSE wait timed out; have ${this.messages.length} messages`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.res?.destroy();
  }
}

export type RelayProcess = {
  proc: import('node:child_process').ChildProcess;
  url: string;
  /** The admin listener (its /metrics), when started with --admin-port. */
  adminUrl?: string;
  stderr: () => string;
  exited: Promise<number | null>;
};

/**
 * How a test starts the relay: by default the built JavaScript, relay/dist/cli.js, as operators run it
 * (built once per integration run by test/integration/build-relay.setup.ts); with `source`, relay/cli.ts
 * through tsx, as `npm run relay` runs it (its messages name the command `npm run relay --`). Either way
 * the pid is the relay's own, so a SIGKILL hits the server, not a wrapper. The built CLI starts in a
 * fraction of tsx's time, and starting the CLI was most of these tests' time.
 */
export const relayEntry = (source = false): string[] => (source ? ['--import', 'tsx', 'relay/cli.ts'] : ['relay/dist/cli.js']);

/** Starts the relay (relayEntry) as its own Node process and waits for its ready line. */
export async function spawnRelay(args: string[], env: Record<string, string> = {}): Promise<RelayProcess> {
  const { spawn } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const proc = spawn(process.execPath, [...relayEntry(), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const { url, adminUrl } = await new Promise<{ url: string; adminUrl?: string }>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`relay did not start: ${err}`)), 30_000);
    proc.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        const line = JSON.parse(out.slice(0, nl)) as { ready: boolean; url: string; adminUrl?: string };
        if (line.ready) resolve(line);
        else reject(new Error(`unexpected first line ${out.slice(0, nl)}`));
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`relay exited with ${code}: ${err}`));
    });
  });
  return { proc, url, ...(adminUrl ? { adminUrl } : {}), stderr: () => err, exited };
}

/**
 * Runs the CLI (relayEntry) to completion; `input` is written to its stdin (a secret, a new master key),
 * which is otherwise closed.
 */
export async function runRelayCli(
  args: string[],
  env: Record<string, string> = {},
  { input = '', source = false }: { input?: string; source?: boolean } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { spawn } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const proc = spawn(process.execPath, [...relayEntry(source), ...args], { cwd: root, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  proc.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  proc.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  proc.stdin.end(input);
  const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
  return { code, stdout, stderr };
}
