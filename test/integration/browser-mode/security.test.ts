/**
 * Browser mode's server over real HTTP on loopback, with a real till core (real SQLite, the real
 * keychain, its embedded sandbox and relay): nobody but the page opened with the launch link gets in.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALL_HEADER,
  cookieName,
  launchUrlOfRunning,
  RUNTIME_FILE,
  startBrowserMode,
  type BrowserMode,
} from '../../../electron/browser/index.js';
import { CONTENT_SECURITY_POLICY } from '../../../electron/main/csp.js';
import { BROWSER_MODE_NO_LIVE } from '../../../shared/shell.js';

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; firstChunk?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        // An event stream stays open: its first bytes are enough.
        if (options.firstChunk) {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

let root: string;
let dataDir: string;
let mode: BrowserMode;
let origin: string;
let host: string;
let cookie: string;

const json = (extra: Record<string, string> = {}) => ({
  host,
  cookie,
  origin,
  'content-type': 'application/json',
  [CALL_HEADER]: '1',
  ...extra,
});
const invoke = (channel: string, payload: unknown, headers: Record<string, string> = json()) =>
  send(`${origin}/momo/invoke`, { method: 'POST', headers, body: JSON.stringify({ channel, payload }) });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'momo-browser-mode-'));
  dataDir = join(root, 'data');
  const rendererDir = join(root, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  mode = await startBrowserMode({ dataDir, rendererDir, core: { log: () => undefined } });
  origin = mode.server.origin;
  host = new URL(origin).host;
  const first = await send(mode.server.launchUrl());
  cookie = String(first.headers['set-cookie']).split(';')[0] ?? '';
});

afterAll(async () => {
  await mode?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('browser mode: who gets in', () => {
  it('binds to 127.0.0.1 only', () => {
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('the launch link works once and sets an HttpOnly, SameSite=Strict cookie, then leaves the address bar', async () => {
    const url = mode.server.launchUrl();
    const first = await send(url);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(new RegExp(`^${cookieName(mode.server.port)}=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=/$`));
    const again = await send(url);
    expect(again.status).toBe(403);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect((await send(`${origin}/?launch=made-up`)).status).toBe(403);
  });

  it('refuses every request without the cookie: page, assets, calls and events', async () => {
    expect((await send(`${origin}/`)).status).toBe(401);
    expect((await send(`${origin}/assets/app.js`)).status).toBe(401);
    expect((await send(`${origin}/momo-bridge.js`)).status).toBe(401);
    const call = await invoke('app:status', {}, json({ cookie: `${cookieName(mode.server.port)}=wrong` }));
    expect(call.status).toBe(401);
    expect((await send(`${origin}/momo/events`, { headers: { host } })).status).toBe(401);
  });

  it('serves the page with the cookie, the bridge first, and the CSP and security headers, without CORS', async () => {
    const page = await send(`${origin}/`, { headers: { host, cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<head>\s*<script src="\/momo-bridge.js"><\/script>/);
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    expect((await send(`${origin}/assets/app.js`, { headers: { host, cookie } })).status).toBe(200);
    expect((await send(`${origin}/../../etc/passwd`, { headers: { host, cookie } })).status).toBe(404);
  });

  it('refuses a Host that is not its own (DNS rebinding), even with the cookie', async () => {
    const port = mode.server.port;
    for (const wrong of [`evil.example:${port}`, `127.0.0.1:${port + 1}`, 'localhost']) {
      expect((await send(`${origin}/`, { headers: { host: wrong, cookie } })).status).toBe(421);
      expect((await invoke('app:status', {}, json({ host: wrong }))).status).toBe(421);
    }
  });

  it('answers a call from the page with the core envelope, and refuses cross-origin, form and header-less POSTs', async () => {
    const ok = await invoke('app:status', {});
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, value: { environment: 'test', shell: 'browser' } });
    expect((await invoke('app:status', {}, json({ origin: 'http://evil.example' }))).status).toBe(403);
    expect((await invoke('app:status', {}, json({ origin: 'null' }))).status).toBe(403);
    const { origin: _omit, ...noOrigin } = json();
    expect((await invoke('app:status', {}, noOrigin)).status).toBe(403);
    const form = await send(`${origin}/momo/invoke`, {
      method: 'POST',
      headers: { ...json(), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'channel=app%3Astatus',
    });
    expect(form.status).toBe(415);
    const { [CALL_HEADER]: _header, ...noHeader } = json();
    expect((await invoke('app:status', {}, noHeader)).status).toBe(403);
    const preflight = await send(`${origin}/momo/invoke`, { method: 'OPTIONS', headers: { host, cookie, origin: 'http://evil.example' } });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.status).toBe(405);
  });

  it('keeps the dispatcher the one gate: bad channels and payloads get its envelope', async () => {
    expect(JSON.parse((await invoke('no:such', {})).body)).toMatchObject({ ok: false, error: { code: expect.any(String) } });
    const bad = JSON.parse((await invoke('payments:start', { amountPesewas: 'ten' })).body) as { ok: boolean };
    expect(bad.ok).toBe(false);
  });

  it('opens the event stream only with the cookie', async () => {
    const stream = await send(`${origin}/momo/events`, { headers: { host, cookie }, firstChunk: true });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream');
    expect((await send(`${origin}/momo/events`, { headers: { host, cookie: 'other=1' } })).status).toBe(401);
  });

  it('refuses LIVE in the core, whatever the page sends', async () => {
    expect(JSON.parse((await invoke('owner:setPin', { pin: '2468' })).body)).toMatchObject({ ok: true });
    const answer = JSON.parse((await invoke('settings:setEnvironment', { environment: 'live', pin: '2468' })).body) as unknown;
    expect(answer).toEqual({ ok: true, value: { ok: false, message: BROWSER_MODE_NO_LIVE } });
  });

  it('keeps its runtime file user-only, and gives a second start a fresh launch link only with its secret', async () => {
    expect(statSync(join(dataDir, RUNTIME_FILE)).mode & 0o777).toBe(0o600);
    const url = await launchUrlOfRunning(dataDir);
    expect(url).toMatch(new RegExp(`^${origin}/\\?launch=`));
    expect((await send(url as string)).status).toBe(303);
    const forged = await send(`${origin}/momo/launch`, { method: 'POST', headers: { host, 'x-momo-control': 'guess' } });
    expect(forged.status).toBe(403);
  });

  it('writes nothing in its data folder that another local user could read: every file and folder is the user’s only', async () => {
    // After use: a call written to the database, the settings, the log, the embedded sandbox's and relay's files.
    expect(JSON.parse((await invoke('app:status', {})).body)).toMatchObject({ ok: true });
    const open: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (statSync(path).mode & 0o077) open.push(`${path.slice(dataDir.length)} ${(statSync(path).mode & 0o777).toString(8)}`);
        if (entry.isDirectory()) walk(path);
      }
    };
    expect(statSync(dataDir).mode & 0o077).toBe(0);
    walk(dataDir);
    expect(readdirSync(dataDir).length).toBeGreaterThan(3);
    expect(open).toEqual([]);
  });
});
