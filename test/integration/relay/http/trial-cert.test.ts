/**
 * relay/docs/proxies.md's "A certificate for a trial": its openssl, chmod and sed lines run as written (with
 * /etc moved to a temporary folder) on the document's two-instance nginx config; the certificate names
 * relay.example.com, its key is 0600, and nginx accepts the rewritten config with that certificate
 * (`nginx -t` loads both files). The curl lines, through a running proxy, are what proxy-configs.test.ts
 * checks with its own certificate. Skipped by name where openssl or nginx-light is absent.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { blockAfter, readDoc } from '../../../support/doc-blocks.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';
import { NGINX, OPENSSL } from './proxies.js';

const run = promisify(execFile);
const doc = readDoc('relay/docs/proxies.md');

const missing = [!OPENSSL && 'openssl', !NGINX && 'nginx-light'].filter(Boolean).join(' and ');

describe.skipIf(missing !== '')(`relay docs: a certificate for a trial${missing ? ` (skipped: ${missing} not installed)` : ''}`, () => {
  const tmp = tempDir('relay-trial-cert');
  const etc = (path: string) => path.replaceAll('/etc/', `${tmp}/etc/`);
  afterAll(() => removeDir(tmp));

  it('makes a certificate for relay.example.com that nginx loads from the config the sed rewrote', async () => {
    const conf = join(tmp, 'etc/nginx/conf.d/momo-relay.conf');
    mkdirSync(join(tmp, 'etc/nginx/conf.d'), { recursive: true });
    writeFileSync(conf, etc(blockAfter(doc, 'spreading over two instances:', 'nginx')));
    const steps = blockAfter(doc, '## A certificate for a trial', 'sh')
      .split('\n')
      // The host's part: the running nginx, and the calls through it (proxy-configs.test.ts).
      .filter((line) => !/^(nginx -t|curl )/.test(line))
      .join('\n');
    expect(steps).toContain('openssl req -x509');
    await run('bash', ['-e', '-c', etc(steps)], { cwd: tmp });

    const key = join(tmp, 'etc/ssl/momo-relay/privkey.pem');
    const cert = join(tmp, 'etc/ssl/momo-relay/fullchain.pem');
    expect(statSync(key).mode & 0o777).toBe(0o600);
    const { stdout } = await run(OPENSSL!, ['x509', '-in', cert, '-noout', '-ext', 'subjectAltName']);
    expect(stdout).toContain('DNS:relay.example.com');
    const rewritten = readFileSync(conf, 'utf8');
    expect(rewritten).toContain(`ssl_certificate     ${cert};`);
    expect(rewritten).toContain(`ssl_certificate_key ${key};`);

    const main = join(tmp, 'nginx.conf');
    const asRoot = process.getuid?.() === 0;
    writeFileSync(
      main,
      [
        asRoot ? 'user root;' : '',
        `pid ${join(tmp, 'nginx.pid')};`,
        'events {}',
        'http {',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(tmp, `${t}_temp`)};`),
        // A free loopback port stands for 443; nginx -t binds nothing, but a non-root user may not name 443.
        rewritten.replace('listen 443 ssl;', 'listen 127.0.0.1:8443 ssl;'),
        '}',
      ].join('\n'),
    );
    const checked = await run(NGINX!, ['-t', '-p', tmp, '-c', main, '-e', join(tmp, 'error.log')]);
    expect(checked.stderr).toMatch(/test is successful/);
  });
});
