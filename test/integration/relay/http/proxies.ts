/**
 * The reverse-proxy configs of relay/docs/proxies.md, run for real: its ```nginx and ```caddyfile blocks are
 * read from it (so the doc and the test cannot drift), given a throwaway self-signed certificate and
 * free loopback ports in place of the public name's, and run with Debian's nginx-light and caddy.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../support/free-port.js';

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
export const CADDY = ['/usr/bin/caddy', '/usr/local/bin/caddy'].find((p) => existsSync(p));
export const OPENSSL = ['/usr/bin/openssl'].find((p) => existsSync(p));

const DOC = fileURLToPath(new URL('../../../../relay/docs/proxies.md', import.meta.url));

/** The document's fenced blocks of one language, in order. */
export function docBlocks(language: 'nginx' | 'caddyfile'): string[] {
  const text = readFileSync(DOC, 'utf8');
  const blocks: string[] = [];
  const fence = new RegExp('^```' + language + '\\n([\\s\\S]*?)^```$', 'gm');
  for (let m = fence.exec(text); m; m = fence.exec(text)) blocks.push(m[1] as string);
  return blocks;
}

export const HOST = 'relay.example.com';
let caddyRuns = 0;

/** A self-signed certificate for relay.example.com (and 127.0.0.1), valid for a day. */
export function selfSignedCert(dir: string): { cert: string; key: string; ca: Buffer } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    OPENSSL as string,
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      key,
      '-out',
      cert,
      '-subj',
      `/CN=${HOST}`,
      '-addext',
      `subjectAltName=DNS:${HOST},IP:127.0.0.1`,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key, ca: readFileSync(cert) };
}

/** The document's upstream addresses, replaced by the test's relay instances (host:port). */
function upstreams(config: string, instances: string[]): string {
  return config
    .replaceAll('10.0.0.11:8787', instances[0] as string)
    .replaceAll('10.0.0.12:8787', (instances[1] ?? instances[0]) as string)
    .replaceAll('127.0.0.1:8787', instances[0] as string)
    .replaceAll('127.0.0.1:8788', (instances[1] ?? instances[0]) as string);
}

export type Proxy = { url: string; host: string; port: number; stop(): Promise<void>; output(): string };
/** Where the proxy listens: a free loopback port by default; port 443 (as root) on an address of 127/8. */
export type Listen = { host: string; port: number };

function started(proc: ChildProcess, listen: Listen, output: () => string): Proxy {
  return {
    url: `https://${listen.host}:${listen.port}`,
    ...listen,
    output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 3_000).unref();
      }),
  };
}

/** Waits until the proxy accepts TLS on `port`, or fails with its output. */
async function ready(proc: ChildProcess, { host, port }: Listen, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`proxy exited with ${proc.exitCode}: ${output()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const req = request({ host, port, path: '/healthz', rejectUnauthorized: false, servername: HOST }, (res) => {
        res.resume();
        resolve(true);
      });
      req.on('error', () => resolve(false));
      req.end();
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`proxy did not answer on ${port}: ${output()}`);
}

/** Waits until the spawned proxy answers, then hands it over; `logged` adds what it writes elsewhere (a log file) to its output. */
async function running(proc: ChildProcess, listen: Listen, logged: () => string = () => ''): Promise<Proxy> {
  let printed = '';
  proc.stdout?.setEncoding('utf8').on('data', (c: string) => (printed += c));
  proc.stderr?.setEncoding('utf8').on('data', (c: string) => (printed += c));
  const output = () => `${printed}${logged()}`;
  await ready(proc, listen, output);
  return started(proc, listen, output);
}

type TlsFiles = { cert: string; key: string };
/** Where a proxy is to listen: as asked, or on a free loopback port. */
const listenOn = async (at?: Listen): Promise<Listen> => at ?? { host: '127.0.0.1', port: await freePort() };

/**
 * Runs one nginx block of the document (a server, with its upstream) in the foreground, on a free loopback port.
 * `workerConnections`: room for more than the tests' few connections (a benchmark holding hundreds of streams).
 */
export async function startNginx(
  block: string,
  dir: string,
  instances: string[],
  tls: TlsFiles,
  at?: Listen,
  { workerConnections = 256 } = {},
): Promise<Proxy> {
  const listen = await listenOn(at);
  const port = listen.port;
  const server = upstreams(block, instances)
    .replace('listen 443 ssl;', `listen ${listen.host}:${port} ssl;`)
    .replaceAll(`/etc/letsencrypt/live/${HOST}/fullchain.pem`, tls.cert)
    .replaceAll(`/etc/letsencrypt/live/${HOST}/privkey.pem`, tls.key)
    // The refusals nginx keeps, in this proxy's own folder (another proxy in the same folder starts empty).
    .replaceAll('/var/lib/nginx/momo-relay-refusals', join(dir, `momo-relay-refusals-${port}`));
  const asRoot = process.getuid?.() === 0;
  const conf = [
    asRoot ? 'user root;' : '',
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} warn;`,
    workerConnections > 256 ? `worker_rlimit_nofile ${workerConnections * 2};` : '',
    `events { worker_connections ${workerConnections}; }`,
    'http {',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(dir, `${t}_temp`)};`),
    server,
    '}',
  ].join('\n');
  const file = join(dir, `nginx-${port}.conf`);
  writeFileSync(file, conf);
  const proc = spawn(NGINX as string, ['-p', dir, '-c', file, '-e', join(dir, 'error.log'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const errorLog = join(dir, 'error.log');
  return running(proc, listen, () => (existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : ''));
}

/**
 * Runs one Caddyfile block of the document, its site on a free loopback port with the test's certificate (no
 * ACME, no admin API). A block that already has its `tls` line (the document's trial) keeps it; on port 443 the
 * site keeps its bare name, as in the document, and is only bound to the test's address.
 */
export async function startCaddy(block: string, dir: string, instances: string[], tls: TlsFiles, at?: Listen): Promise<Proxy> {
  const listen = await listenOn(at);
  const port = listen.port;
  const address = port === 443 ? HOST : `${HOST}:${port}`;
  const ownTls = /^\s*tls /m.test(block) ? '' : `\n\ttls ${tls.cert} ${tls.key}`;
  const site = upstreams(block, instances).replace(`${HOST} {`, `${address} {\n\tbind ${listen.host}${ownTls}`);
  // skip_install_trust: a `tls internal` trial run as root must not add its CA to this machine's trusted ones.
  const globals = `{\n\tadmin off\n\tauto_https disable_redirects\n\tskip_install_trust\n\tstorage file_system ${join(dir, 'caddy-data')}\n}\n`;
  const file = join(dir, `Caddyfile-${listen.host}-${port}-${++caddyRuns}`);
  writeFileSync(file, globals + site);
  const env = { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir };
  const proc = spawn(CADDY as string, ['run', '--config', file, '--adapter', 'caddyfile'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return running(proc, listen);
}

/** The root certificate of Caddy's own CA (`tls internal`) for a Caddy started by startCaddy in `dir`. */
export const caddyInternalRoot = (dir: string) => join(dir, 'caddy-data/pki/authorities/local/root.crt');

export type HttpsResult = { status: number; body: string; headers: IncomingHttpHeaders };

/** One HTTPS request to the proxy, as the service or a till makes it (the proxy's certificate trusted). */
export function httpsRequest(
  proxy: Proxy,
  ca: Buffer,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<HttpsResult> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: proxy.host,
        port: proxy.port,
        path,
        method: options.method ?? 'GET',
        ca,
        servername: HOST,
        headers: { host: `${HOST}:${proxy.port}`, ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer to ${path} within 15 s`)));
    req.end(options.body);
  });
}

/** An event stream through the proxy: the text received so far, and when each piece arrived. */
export function httpsStream(proxy: Proxy, ca: Buffer, path: string, token: string) {
  const state = { status: 0, text: '', close: () => {} };
  return new Promise<typeof state>((resolve, reject) => {
    const req = request(
      {
        host: proxy.host,
        port: proxy.port,
        path,
        ca,
        servername: HOST,
        headers: { host: `${HOST}:${proxy.port}`, accept: 'text/event-stream', authorization: `Bearer ${token}` },
      },
      (res) => {
        state.status = res.statusCode ?? 0;
        res.setEncoding('utf8').on('data', (c: string) => (state.text += c));
        res.on('error', () => {});
        state.close = () => req.destroy();
        resolve(state);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
