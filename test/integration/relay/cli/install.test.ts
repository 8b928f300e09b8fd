/**
 * The production install of relay/docs/operator-guide.md ("Installing on a server"), run as written:
 * `npm run build:relay`, `npm pack ./relay`, then the server's commands in a temporary folder standing
 * for `/`; the installed relay, run by plain `node` with no TypeScript loader and none of the till's
 * packages, manages merchants and serves on a real PostgreSQL. The systemd unit's files are the ones the
 * install created.
 *
 * Two departures from the guide, both for this machine: the host steps `useradd` and `chown` are left
 * out (they need a real root system), and `npm install` runs with `--ignore-scripts` because
 * better-sqlite3's install script downloads its addon from GitHub (unreachable here) or compiles it for
 * minutes; the PostgreSQL relay loads no native code, and npm's registry is reachable (here and in CI).
 */
import { execFile, spawn } from 'node:child_process';

import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { blockAfter, readDoc } from '../../../support/doc-blocks.js';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const run = promisify(execFile);
const guide = readDoc('relay/docs/operator-guide.md');
const proxies = readDoc('relay/docs/proxies.md');
const postgres = readDoc('relay/docs/postgresql.md');

describePg('the relay installed on its own, as relay/docs/operator-guide.md says', () => {
  const cluster = usePgCluster();
  const tmp = tempDir('relay-install');
  const fsRoot = join(tmp, 'root');
  const at = (path: string) => join(fsRoot, path);
  const cli = at('/opt/momo-relay/node_modules/@momo-till/relay/dist/cli.js');
  let url = '';

  beforeAll(async () => {
    url = await cluster().createDatabase();
    await run(process.execPath, ['scripts/build-relay.mjs'], { cwd: ROOT });
    const packed = await run('npm', ['pack', './relay', '--pack-destination', tmp, '--json'], { cwd: ROOT });
    const tarball = join(tmp, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);
    expect(blockAfter(guide, '## Installing on a server', 'sh')).toContain(`npm pack ./relay`);

    // The server's commands, with / moved to the temporary folder.
    const steps = blockAfter(guide, 'On the server (', 'sh')
      .split('\n')
      .filter((line) => !/^(useradd|chown) /.test(line))
      .map((line) =>
        line
          .replaceAll('/opt/momo-relay', at('/opt/momo-relay'))
          .replaceAll('/etc/momo-relay', at('/etc/momo-relay'))
          .replace('/tmp/momo-till-relay-0.1.0.tgz', tarball)
          .replace('npm install --omit=dev', 'npm install --omit=dev --ignore-scripts --prefer-offline --no-audit --no-fund'),
      );
    mkdirSync(fsRoot);
    await run('bash', ['-e', '-c', steps.join('\n')], { cwd: tmp });
  }, 900_000);

  afterAll(() => removeDir(tmp));

  it('installs only the relay’s packages, and the built file, with no TypeScript loader', () => {
    const modules = readdirSync(at('/opt/momo-relay/node_modules'));
    expect(modules).toEqual(expect.arrayContaining(['pg', 'zod', 'better-sqlite3', '@momo-till']));
    for (const absent of ['tsx', 'typescript', 'esbuild', 'react', 'electron', 'vite']) expect(modules).not.toContain(absent);
    expect(readFileSync(cli, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(at('/etc/momo-relay/master.key')).mode & 0o777).toBe(0o600);
    expect(statSync(at('/etc/momo-relay/relay.env')).mode & 0o777).toBe(0o600);
  });

  it('a CLI command loads only its own family of commands: merchant list needs no HTTP server, prom-client or SQLite addon', () => {
    const dist = at('/opt/momo-relay/node_modules/@momo-till/relay/dist');
    const staticImports = (file: string) =>
      [...readFileSync(join(dist, file), 'utf8').matchAll(/^import\s[^;]*?from\s*"([^"]+)"/gm)].map((m) => m[1]!);
    expect(readdirSync(dist).sort()).toEqual([
      'cli.js',
      'owner-link-commands.js',
      'page',
      'pg-commands.js',
      'pg-list-commands.js',
      'serve.js',
      'sqlite-commands.js',
    ]);
    expect(staticImports('cli.js').filter((p) => !p.startsWith('node:'))).toEqual([]);
    const pgCommands = staticImports('pg-commands.js');
    expect(pgCommands).toContain('pg');
    for (const heavy of ['prom-client', 'better-sqlite3', 'node:http']) expect(pgCommands).not.toContain(heavy);
    // merchant/key/token list: pg and nothing more (loading zod alone is a large share of a list's time).
    expect(staticImports('pg-list-commands.js').filter((p) => !p.startsWith('node:'))).toEqual(['pg']);
    expect(staticImports('serve.js')).toEqual(expect.arrayContaining(['pg', 'prom-client', 'better-sqlite3', 'node:http']));
  });

  it('the systemd unit names files the install created', () => {
    const unit = blockAfter(guide, 'A systemd unit per instance', 'ini');
    const paths = [...unit.matchAll(/(?<=[=\s])(\/(?:opt|etc)\/momo-relay\/?[^\s]*)/g)].map((m) => m[1]!);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/opt/momo-relay',
        '/etc/momo-relay/relay.env',
        '/etc/momo-relay/master.key',
        '/opt/momo-relay/node_modules/@momo-till/relay/dist/cli.js',
        '/etc/momo-relay/relay.json',
      ]),
    );
    for (const path of paths) expect(existsSync(at(path)), path).toBe(true);
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node \/opt\/momo-relay\/node_modules\/@momo-till\/relay\/dist\/cli\.js /m);
  });

  it('"Setting up" runs as written on the install: the env file, the master key file, the installed command', async () => {
    // The database URL of the install's relay.env is the test cluster's (the guide's is an example).
    writeFileSync(at('/etc/momo-relay/relay.env'), `RELAY_DATABASE_URL=${url}\n`, { mode: 0o600 });
    writeFileSync(join(tmp, 'ama-secret.txt'), `sk_live_${'AmaSecret0000000000000001'}`);
    const steps = blockAfter(postgres, '## Setting up', 'sh')
      .replaceAll('/opt/momo-relay', at('/opt/momo-relay'))
      .replaceAll('/etc/momo-relay', at('/etc/momo-relay'))
      .replace('pk_live_…', 'pk_live_Ama000001');
    const r = await run('bash', ['-e', '-c', steps], { cwd: tmp, env: { PATH: process.env.PATH ?? '' } });
    expect(r.stdout).toMatch(/^rt_[A-Za-z0-9_-]{43}$/m);
    expect(r.stdout).toMatch(/^MCH_ama\tAma Stores/m);
  }, 120_000);

  it('the two-instances-on-one-machine commands derive a template unit and point the proxy at both ports', async () => {
    const commands = blockAfter(proxies, '## Two instances on one machine', 'sh').split('\n');
    const unitDir = join(tmp, 'systemd');
    mkdirSync(unitDir, { recursive: true });
    writeFileSync(join(unitDir, 'momo-relay.service'), blockAfter(guide, 'A systemd unit per instance', 'ini'));
    const nginx = join(tmp, 'momo-relay.conf');
    writeFileSync(nginx, blockAfter(proxies, 'spreading over two instances:', 'nginx'));
    const caddy = join(tmp, 'Caddyfile');
    writeFileSync(caddy, blockAfter(proxies, '\nWith Caddy:\n', 'caddyfile'));
    const script = commands
      .filter((line) => !line.startsWith('systemctl '))
      .map((line) => line.replaceAll('/etc/systemd/system', unitDir).replaceAll('/etc/nginx/conf.d/momo-relay.conf', nginx))
      .join('\n');
    await run('bash', ['-e', '-c', script]);
    // "With Caddy, the last line's sed on /etc/caddy/Caddyfile instead."
    expect(proxies.text).toContain("(With Caddy, the last line's `sed` on `/etc/caddy/Caddyfile` instead.)");
    await run('bash', ['-e', '-c', commands.at(-1)!.replace('/etc/nginx/conf.d/momo-relay.conf', caddy)]);
    expect(readFileSync(caddy, 'utf8')).toContain('reverse_proxy 127.0.0.1:8787 127.0.0.1:8788 {');
    const template = readFileSync(join(unitDir, 'momo-relay@.service'), 'utf8');
    expect(template).toMatch(/^ExecStart=\/usr\/bin\/node \S+\/dist\/cli\.js --host 127\.0\.0\.1 --port %i /m);
    expect(readFileSync(nginx, 'utf8')).toMatch(/^upstream momo_relay \{ server 127\.0\.0\.1:8787 [^;]*; server 127\.0\.0\.1:8788 [^;]*;/m);
    expect(commands).toContain('systemctl daemon-reload && systemctl enable --now momo-relay@8787 momo-relay@8788');
  });

  it('plain node runs the installed relay: merchants on PostgreSQL, and serving', async () => {
    const env = { PATH: process.env.PATH ?? '', RELAY_DATABASE_URL: url, RELAY_MASTER_KEY_FILE: at('/etc/momo-relay/master.key') };
    const added = await run('node', [cli, 'merchant', 'add', '--id', 'MCH_installed'], { cwd: tmp, env });
    expect(added.stderr).toMatch(/Next: node .*dist\/cli\.js key add --merchant MCH_installed/);
    const listed = await run(at('/opt/momo-relay/node_modules/.bin/momo-relay'), ['merchant', 'list'], { cwd: tmp, env });
    expect(listed.stdout).toMatch(/^MCH_installed\t/m);
    // An error of a command family loaded when it ran is still one plain line (its own plainMessage).
    const refused = await run('node', [cli, 'merchant', 'add', '--id', 'MCH_installed'], { cwd: tmp, env }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 2 });
    expect((refused as { stderr: string }).stderr.trim().split('\n')).toHaveLength(1);
    expect((refused as { stderr: string }).stderr).not.toMatch(/\n\s+at /);

    const relay = spawn('node', [cli, '--port', '0', '--config', at('/etc/momo-relay/relay.json')], { cwd: tmp, env });
    let stdout = '';
    relay.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    const exited = new Promise<number | null>((resolve) => relay.on('exit', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no ready line')), 60_000);
        relay.stdout.on('data', () => stdout.includes('\n') && (clearTimeout(timer), resolve()));
        void exited.then(() => reject(new Error('the relay exited')));
      });
      const ready = JSON.parse(stdout.split('\n')[0]!) as { ready: boolean; url: string };
      expect(ready).toMatchObject({ ready: true });
      // The owner's phone page ships with the install: its three files, as the source tree serves them.
      for (const [path, file, type] of [
        ['/owner', 'index.html', 'text/html'],
        ['/owner/app.js', 'app.js', 'text/javascript'],
        ['/owner/app.css', 'app.css', 'text/css'],
      ] as const) {
        const res = await fetch(`${ready.url}${path}`);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('content-type')).toContain(type);
        expect(await res.text()).toBe(readFileSync(join(ROOT, 'relay/http/owner/page', file), 'utf8'));
      }
    } finally {
      relay.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 120_000);
});
