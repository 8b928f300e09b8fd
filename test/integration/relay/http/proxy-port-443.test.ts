/**
 * relay/docs/proxies.md's proxies on port 443, as root, the way its trial says: the certificate
 * made by its openssl lines, its `sed`s applied to its two-instance nginx and Caddy configs (and Caddy's
 * `tls internal` in place of that certificate), two relay instances on PostgreSQL, and its `curl` lines run
 * as written with `--cacert` (never -k): `/healthz` answers `{"ok":true}`, `/metrics` 403, and the till's
 * `curl -N` stream prints `event: hello`, then a delivery POSTed over HTTPS on 443.
 *
 * Departures, for a shared machine: /etc is a temporary folder; the proxies listen on 443 of one address of
 * 127/8 picked at random (nginx's `listen 443 ssl;` gets that address; Caddy's site is bound to it) and the
 * curl lines resolve the name to it; Caddy runs as root without its admin API or HTTP redirect (Debian runs
 * it as the `caddy` user with CAP_NET_BIND_SERVICE: the document's `chown caddy:` is for that).
 * Binding 443 needs root: skipped by name otherwise, and where nginx-light, caddy, openssl or curl is absent.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../../relay/http/index.js';
import { blockAfter, readDoc } from '../../../support/doc-blocks.js';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';
import { waitFor } from '../../../support/wait-for.js';
import { seedPgTenant } from '../stores.js';
import { signedHeaders, TEST_KEY, transaction, webhookBody } from '../helpers.js';
import { CADDY, caddyInternalRoot, NGINX, OPENSSL, startCaddy, startNginx, type Listen, type Proxy } from './proxies.js';

const run = promisify(execFile);
const doc = readDoc('relay/docs/proxies.md');
const CURL = ['/usr/bin/curl'].find((p) => existsSync(p));
const asRoot = process.getuid?.() === 0;

/** 443 on a loopback address nothing else listens on (a colleague's proxy may hold 127.0.0.1:443). */
async function free443(): Promise<Listen | undefined> {
  for (let i = 0; i < 20; i++) {
    const host = `127.0.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 2}`;
    const ok = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(443, host, () => server.close(() => resolve(true)));
    });
    if (ok) return { host, port: 443 };
  }
  return undefined;
}

const free = asRoot ? await free443() : undefined;

const missing = [
  !asRoot && 'not root: port 443 needs it',
  asRoot && !free && 'port 443 is taken on every loopback address (a server listens on *:443)',
  ...[
    [NGINX, 'nginx-light'],
    [CADDY, 'caddy'],
    [OPENSSL, 'openssl'],
    [CURL, 'curl'],
  ]
    .filter(([binary]) => !binary)
    .map(([, name]) => `${name} is not installed`),
].filter(Boolean);

describePg(`relay/docs/proxies.md's proxies on port 443${missing.length ? ` (skipped: ${missing.join(', ')})` : ''}`, () => {
  const cluster = usePgCluster();
  const tmp = tempDir('relay-443');
  const etc = (text: string) => text.replaceAll('/etc/', `${tmp}/etc/`);
  const relays: RunningRelay[] = [];
  let token = '';
  const listen = free as Listen;
  const proxies: Proxy[] = [];
  const trial = blockAfter(doc, '## A certificate for a trial', 'sh').split('\n');
  const upstreamSed = blockAfter(doc, '## Two instances on one machine', 'sh').split('\n').at(-1)!;
  /** The document's curl lines, aimed at this test's address and /etc. */
  const aimed = (line: string, ca = `${tmp}/etc/ssl/momo-relay/fullchain.pem`) =>
    etc(line)
      .replace('relay.example.com:443:127.0.0.1', `relay.example.com:443:${listen.host}`)
      .replace(`${tmp}/etc/ssl/momo-relay/fullchain.pem`, ca);
  const hostPorts = () => relays.map((r) => new URL(r.url).host);

  beforeAll(async () => {
    if (missing.length) return;
    const seeded = await seedPgTenant(cluster());
    token = seeded.token;
    for (let i = 0; i < 2; i++)
      relays.push(await startRelay({ databaseUrl: seeded.databaseUrl, masterKey: seeded.masterKey, config: {}, log: () => {} }));
    mkdirSync(join(tmp, 'etc/nginx/conf.d'), { recursive: true });
    mkdirSync(join(tmp, 'etc/caddy'), { recursive: true });
    // The certificate: the trial's mkdir, openssl and chmod lines as written.
    const cert = trial.filter((l) => /^(mkdir|openssl| {2}-|chmod) ?/.test(l)).join('\n');
    expect(cert).toContain('openssl req -x509');
    await run('bash', ['-e', '-c', etc(cert)]);
  }, 120_000);

  afterAll(async () => {
    for (const p of proxies) await p.stop();
    for (const r of relays) await r.close();
    removeDir(tmp);
  });

  /** Walks `proxy` (throughProxy), then stops it whatever happened. */
  async function walk(proxy: Proxy, ca?: string): Promise<void> {
    proxies.push(proxy);
    try {
      await throughProxy(ca);
    } finally {
      await proxy.stop();
    }
  }

  /** The document's two curl lines, then its `curl -N` stream and a delivery over HTTPS on 443. */
  async function throughProxy(ca?: string): Promise<void> {
    const curls = trial.filter((l) => l.startsWith('curl '));
    expect(curls).toHaveLength(2);
    expect((await run('bash', ['-e', '-c', aimed(curls[0]!, ca)])).stdout).toBe('{"ok":true}');
    expect((await run('bash', ['-e', '-c', aimed(curls[1]!, ca)])).stdout).toBe('403\n');

    const streamLine = /`(curl -N --resolve[^`]*)`/.exec(doc.text)![1]!.replace(/\s+/g, ' ').replace('rt_…', token);
    const stream = spawn('bash', ['-c', `exec ${aimed(streamLine, ca)}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    stream.stdout.setEncoding('utf8').on('data', (c: string) => (text += c));
    try {
      await waitFor(() => text.includes('event: hello'), 10_000, 'the stream’s hello through the proxy');
      const tx = transaction('test');
      const body = webhookBody(tx);
      const bodyFile = join(tmp, 'delivery.json');
      writeFileSync(bodyFile, body);
      const headers = Object.entries(signedHeaders(body, TEST_KEY)).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
      const post = aimed(curls[0]!.replace('https://relay.example.com/healthz', ''), ca).split(' ').slice(1).filter(Boolean);
      const answer = await run(CURL!, [
        '-s',
        ...post,
        ...headers,
        '-H',
        'content-type: application/json',
        '--data-binary',
        `@${bodyFile}`,
        'https://relay.example.com/v1/webhooks',
      ]);
      expect(JSON.parse(answer.stdout)).toMatchObject({ received: true, duplicate: false });
      await waitFor(() => text.includes(tx.reference), 3_000, 'the event on the till’s stream through the proxy');
    } finally {
      stream.kill();
    }
  }

  it.skipIf(missing.length > 0)(
    'nginx: the two-instance config with the trial certificate, on 443',
    async () => {
      const conf = join(tmp, 'etc/nginx/conf.d/momo-relay.conf');
      writeFileSync(conf, etc(blockAfter(doc, 'spreading over two instances:', 'nginx')));
      const nginxSed = trial.filter((l) => l.startsWith('sed ') && l.includes('/etc/nginx/'));
      expect(nginxSed).toHaveLength(1);
      await run('bash', ['-e', '-c', etc([upstreamSed, ...nginxSed].join('\n'))]);
      expect(readFileSync(conf, 'utf8')).toContain('listen 443 ssl;');
      await walk(await startNginx(readFileSync(conf, 'utf8'), tmp, hostPorts(), { cert: '', key: '' }, listen));
    },
    60_000,
  );

  it.skipIf(missing.length > 0)(
    'Caddy: the two-instance Caddyfile with the trial certificate, on 443',
    async () => {
      const file = join(tmp, 'etc/caddy/Caddyfile');
      writeFileSync(file, blockAfter(doc, '\nWith Caddy:\n', 'caddyfile'));
      const caddyLines = blockAfter(doc, 'With Caddy, make the same certificate', 'sh').split('\n');
      const steps = [upstreamSed.replace('/etc/nginx/conf.d/momo-relay.conf', '/etc/caddy/Caddyfile'), ...caddyLines].filter(
        // systemd's part; and the chown where Debian's caddy user is absent (Caddy runs as root here).
        (l) => !l.startsWith('systemctl ') && !(l.startsWith('chown caddy:') && !readFileSync('/etc/passwd', 'utf8').includes('\ncaddy:')),
      );
      await run('bash', ['-e', '-c', etc(steps.join('\n'))]);
      expect(readFileSync(file, 'utf8')).toMatch(/^relay\.example\.com \{\n\ttls \S+fullchain\.pem \S+privkey\.pem\n/);
      await walk(await startCaddy(readFileSync(file, 'utf8'), tmp, hostPorts(), { cert: '', key: '' }, listen));
    },
    60_000,
  );

  it.skipIf(missing.length > 0)(
    'Caddy: `tls internal` instead, its root certificate given to curl, on 443',
    async () => {
      expect(doc.text).toContain('the line `tls internal` in its place');
      const file = join(tmp, 'etc/caddy/Caddyfile');
      const site = readFileSync(file, 'utf8').replace(/^\ttls .*$/m, '\ttls internal');
      const proxy = await startCaddy(site, tmp, hostPorts(), { cert: '', key: '' }, listen);
      await walk(proxy, caddyInternalRoot(tmp));
    },
    60_000,
  );
});
