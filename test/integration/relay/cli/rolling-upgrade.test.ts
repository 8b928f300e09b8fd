/**
 * A rolling upgrade of two PostgreSQL instances from the previous release, run as relay/docs/postgresql.md's
 * "Upgrading" says, while the service keeps delivering. The previous release (test/integration/relay/
 * previous-release.json) is taken from git history (`git archive`), built as the server install builds it
 * (`npm run build:relay`, this tree's node_modules lent by a symlink), packed and installed with the guide's
 * "On the server" block; two instances of it (the template unit of "Two instances on one machine") serve a
 * merchant made with its own CLI. Then the `# runbook: upgrade` block, run as written for each instance in
 * turn, stops it, installs this tree's release, starts it and waits for its /healthz; the first new instance
 * migrates the schema while the other old one serves it (deliveries, and a till's read). Every acknowledged
 * delivery is then read by a till once and in order, across the upgrade, under the same log id.
 *
 * Departures, each for this machine: paths under / and the instances' ports are moved; `systemctl` is
 * test/support/systemctl-stand-in.mjs (systemd is not PID 1 here), running the unit's ExecStart as
 * `nobody` when we are root (the guide's `momo-relay` user); `useradd` is left out and npm gets
 * install.test.ts's flags (no install scripts: the PostgreSQL relay loads no native code). The deliveries go
 * straight to the instances, passed to the other one on a refused connection or a 502/503 as the guide's
 * nginx does. Skipped, by name, when the previous release is not in this clone's history (a shallow clone).
 */
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockAfter, readDoc } from '../../../support/doc-blocks.js';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';
import { waitFor } from '../../../support/wait-for.js';
import { deliver, get, LIVE_KEY, transaction } from '../helpers.js';
import { PG_SCHEMA_VERSION } from '../../../../relay/store/pg/index.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const PREVIOUS = JSON.parse(readFileSync(new URL('../previous-release.json', import.meta.url), 'utf8')) as {
  commit: string;
  pgSchema: number;
};
const guide = readDoc('relay/docs/operator-guide.md');
const proxies = readDoc('relay/docs/proxies.md');
const postgres = readDoc('relay/docs/postgresql.md');
const SERVICE_USER = process.getuid?.() === 0 ? 'nobody' : '';
const NPM_FLAGS = 'npm install --omit=dev --ignore-scripts --prefer-offline --no-audit --no-fund';

const inHistory = spawnSync('git', ['cat-file', '-e', `${PREVIOUS.commit}^{commit}`], { cwd: ROOT }).status === 0;
const name = 'relay/docs/postgresql.md: a rolling upgrade of two instances from the previous release, losing no delivery';
const suite = (fn: () => void) =>
  inHistory
    ? describePg(name, fn)
    : describe.skip(`${name} (skipped: the previous release ${PREVIOUS.commit} is not in this clone's history; git fetch --unshallow)`, fn);

/** The document's ```sh block that starts with `# runbook: upgrade`. */
function upgradeBlock(): string {
  const m = /^```sh\n# runbook: upgrade\n([\s\S]*?)^```$/m.exec(postgres.text);
  if (!m) throw new Error('relay/docs/postgresql.md has no "# runbook: upgrade" block');
  return m[1]!;
}

/** A loopback port below 6554 (the unit's admin listener is on 1<port>) with its admin port also free. */
async function instancePort(taken: number[]): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (;;) {
    const port = 2000 + Math.floor(Math.random() * 4500);
    if (!taken.includes(port) && (await free(port)) && (await free(Number(`1${port}`)))) return port;
  }
}

suite(() => {
  const cluster = usePgCluster();
  // Made when the suite runs (a skipped suite leaves nothing behind).
  let tmp = '';
  beforeAll(() => {
    tmp = tempDir('relay-upgrade');
  });
  const at = (path: string) => join(tmp, 'root', path);
  const env = () => ({
    PATH: `${join(tmp, 'bin')}:${process.env.PATH ?? ''}`,
    STANDIN_UNITS: at('/etc/systemd/system'),
    STANDIN_STATE: join(tmp, 'state'),
    STANDIN_USER: SERVICE_USER,
  });
  const moved = (text: string) =>
    text
      .replaceAll('/opt/momo-relay', at('/opt/momo-relay'))
      .replaceAll('/etc/momo-relay', at('/etc/momo-relay'))
      .replaceAll('/etc/systemd/system', at('/etc/systemd/system'));
  const bash = (script: string) => run('bash', ['-c', script], { cwd: tmp, env: env(), maxBuffer: 16 << 20 });
  const ports: number[] = [];
  afterAll(async () => {
    for (const port of ports) await bash(`systemctl stop momo-relay@${port}`).catch(() => undefined);
    if (tmp) removeDir(tmp);
  }, 60_000);

  /** `npm pack ./relay` of a tree; the tarball's path. */
  async function pack(tree: string, into: string): Promise<string> {
    mkdirSync(into, { recursive: true });
    const packed = await run('npm', ['pack', './relay', '--pack-destination', into, '--json'], { cwd: tree });
    return join(into, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);
  }

  it('every acknowledged delivery is read once, in order, across the upgrade of both instances', { timeout: 240_000 }, async () => {
    chmodSync(tmp, 0o755);
    mkdirSync(at('/'), { recursive: true });
    mkdirSync(join(tmp, 'state'));
    mkdirSync(join(tmp, 'bin'));
    symlinkSync(join(ROOT, 'test/support/systemctl-stand-in.mjs'), join(tmp, 'bin/systemctl'));

    // The previous release, from history, built and packed as a release is; this tree's release beside it.
    const previous = join(tmp, 'previous');
    mkdirSync(previous);
    await bash(`git -C ${ROOT} archive ${PREVIOUS.commit} | tar -x -C ${previous}`);
    symlinkSync(join(ROOT, 'node_modules'), join(previous, 'node_modules'));
    const [url, oldTarball, newTarball] = await Promise.all([
      cluster().createDatabase(),
      run(process.execPath, ['scripts/build-relay.mjs'], { cwd: previous }).then(() => pack(previous, join(tmp, 'old'))),
      pack(ROOT, join(tmp, 'new')),
    ]);

    // The guide's install of it, as root, the files the instances read given to the service user.
    const installBlock = blockAfter(guide, 'On the server (', 'sh');
    for (const replaced of ['/tmp/momo-till-relay-0.1.0.tgz', 'npm install --omit=dev', 'chown momo-relay: '])
      expect(installBlock).toContain(replaced);
    const install = installBlock
      .split('\n')
      .filter((line) => !line.startsWith('useradd '))
      .map((line) =>
        moved(line)
          .replace('/tmp/momo-till-relay-0.1.0.tgz', oldTarball)
          .replace('npm install --omit=dev', NPM_FLAGS)
          .replace('chown momo-relay: ', SERVICE_USER ? `chown ${SERVICE_USER}: ` : 'chown "$(id -un)": '),
      )
      .join('\n');
    await bash(`set -e\n${install}`);
    // The service below delivers one merchant's deliveries back to back, far past a shop's delivery share: the
    // share is lifted so that the upgrade, not the share, decides what is acknowledged.
    const unshared = 'RELAY_DELIVERIES_PER_SECOND_PER_MERCHANT=1000000\nRELAY_DELIVERY_BURST_PER_MERCHANT=1000000\n';
    writeFileSync(at('/etc/momo-relay/relay.env'), `RELAY_DATABASE_URL=${url}\n${unshared}`, { mode: 0o600 });
    // The merchant, its key and a till's token, made by the previous release's own commands.
    writeFileSync(join(tmp, 'secret.txt'), LIVE_KEY.secret, { mode: 0o600 });
    const relay = at('/opt/momo-relay/node_modules/.bin/momo-relay');
    const setUp = await run(
      'bash',
      [
        '-e',
        '-c',
        [
          `${relay} merchant add --id MCH_ama --name "Ama Stores"`,
          `${relay} key add --merchant MCH_ama --public-id ${LIVE_KEY.publicId} < secret.txt`,
          `${relay} token create --merchant MCH_ama --label front-counter`,
        ].join('\n'),
      ],
      { cwd: tmp, env: { PATH: process.env.PATH ?? '', RELAY_DATABASE_URL: url, RELAY_MASTER_KEY_FILE: at('/etc/momo-relay/master.key') } },
    );
    const token = /^rt_\S+$/m.exec(setUp.stdout)![0];

    // Two instances of it, from the template unit the guide's seds make.
    const unit = blockAfter(guide, 'A systemd unit per instance', 'ini');
    mkdirSync(at('/etc/systemd/system'), { recursive: true });
    writeFileSync(at('/etc/systemd/system/momo-relay.service'), moved(unit));
    await bash(moved(blockAfter(proxies, '## Two instances on one machine', 'sh').split('\n')[0]!));
    ports.push(await instancePort([]));
    ports.push(await instancePort(ports));
    const base = (port: number) => `http://127.0.0.1:${port}`;
    const healthy = async (port: number) => (await get(`${base(port)}/healthz`).catch(() => null))?.status === 200;
    for (const port of ports) await bash(`systemctl start momo-relay@${port}`);
    for (const port of ports) await waitFor(() => healthy(port), 60_000, `the previous release on ${port}`, 100);
    const schema = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return Number((await client.query('SELECT max(version) AS v FROM relay_schema_migrations')).rows[0].v);
      } finally {
        await client.end();
      }
    };
    expect(await schema()).toBe(PREVIOUS.pgSchema);

    // The service delivers without pause, one delivery after another, each until it is acknowledged: a
    // refused connection or a 502/503 passes it to the other instance, as the guide's nginx does.
    const acknowledged: Array<{ reference: string; phase: string; port: number }> = [];
    let phase = 'before';
    let stopping = false;
    let turn = 0;
    const unexpected: string[] = [];
    const service = (async () => {
      while (!stopping) {
        const tx = transaction('live');
        for (let tries = 0; ; tries++) {
          // null: the connection was refused (the instance is stopped).
          const port = ports[turn++ % 2]!;
          const answer = await deliver(base(port), tx, LIVE_KEY).catch(() => null);
          if (answer?.status === 200) {
            acknowledged.push({ reference: tx.reference as string, phase, port });
            break;
          }
          if (![502, 503, -1].includes(answer?.status ?? -1)) unexpected.push(answer!.body);
          if (tries % 2 === 1) await new Promise((resolve) => setTimeout(resolve, 100)); // both refused: the service's retry
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    /** Waits until each instance has acknowledged `count` deliveries in this phase. */
    const served = (count: number) =>
      waitFor(
        () => ports.every((port) => acknowledged.filter((a) => a.phase === phase && a.port === port).length >= count),
        60_000,
        `${count} deliveries on each instance ${phase}`,
      );

    // A till reads what there is before the upgrade.
    type Page = { logId: string; items: Array<{ seq: number; transaction: { reference: string } }>; nextAfter: number; hasMore: boolean };
    const read: string[] = [];
    let after = 0;
    let logId = '';
    const readAll = async (port: number) => {
      for (;;) {
        const page = (await get(`${base(port)}/v1/transactions?after=${after}&limit=500`, token)).json as Page;
        if (logId) expect(page.logId).toBe(logId);
        logId = page.logId;
        read.push(...page.items.map((i) => i.transaction.reference));
        after = page.nextAfter;
        if (!page.hasMore) return;
      }
    };
    await served(10);
    await readAll(ports[1]!);

    // The runbook, as written, for each instance in turn, while the service delivers; the previous
    // release's tarball is long gone from /tmp by then.
    rmSync(oldTarball);
    const block = upgradeBlock();
    expect(block).toMatch(/^set -euo pipefail\n/);
    expect(block).toMatch(/^instance=8787 /m);
    for (const replaced of ['/tmp/momo-till-relay-0.1.0.tgz', 'npm install --omit=dev']) expect(block).toContain(replaced);
    for (const [i, port] of ports.entries()) {
      phase = `upgrading ${i + 1}`;
      const script = moved(block)
        .replace(/^instance=8787 /m, `instance=${port} `)
        .replace('/tmp/momo-till-relay-0.1.0.tgz', newTarball)
        .replace('npm install --omit=dev', NPM_FLAGS);
      // A failed block says why with the instance's own lines (its journal).
      const journal = () => readFileSync(join(tmp, 'state', `momo-relay@${port}.log`), 'utf8');
      const upgraded = await bash(script).catch((e: Error) => {
        throw new Error(`${e.message}\nmomo-relay@${port}'s journal:\n${journal()}`);
      });
      expect(upgraded.stdout).toContain('{"ok":true}');
      phase = `after ${i + 1}`;
      // Both serve: after the first, the new instance on the schema it migrated and the previous release
      // beside it, which a till also reads from.
      await served(5);
      if (i === 0) await readAll(ports[1]!);
    }
    expect(await schema()).toBe(PG_SCHEMA_VERSION);
    stopping = true;
    await service;

    expect(unexpected).toEqual([]);
    // Deliveries were acknowledged in every phase, each instance upgraded while the other served.
    for (const p of ['before', 'upgrading 1', 'after 1', 'upgrading 2', 'after 2'])
      expect(acknowledged.filter((a) => a.phase === p).length, p).toBeGreaterThan(0);
    // The till reads on from its cursor on the new release: every acknowledged delivery once, in order.
    await readAll(ports[0]!);
    expect(read).toEqual(acknowledged.map((a) => a.reference));
    expect(new Set(read).size).toBe(read.length);
  });
});
