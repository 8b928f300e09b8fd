/**
 * relay/docs/postgresql.md's backup and restore runbook, and its import of a single-shop relay, run as written against a real PostgreSQL cluster: its
 * `# runbook: backup` and `# runbook: restore` blocks are read from the document (so the doc and the test
 * cannot drift), only their `export PG…` line given the test cluster's settings, and run with bash.
 * Checks: the dump is written 0600; the restore brings the log back to the dump's events in one
 * transaction and gives the merchant's log a new identity; a till then reads the restored log from 0.
 * The import block ("Moving a single-shop relay over") runs as written as root, the operator, with
 * /etc/momo-relay, /opt/momo-relay and /var/lib/momo-relay moved to a temporary folder (the installed
 * `momo-relay` is the built relay/dist/cli.js; the SQLite folder the service user's, `nobody` when the tests
 * run as root): the token it prints reads the shop's events, and no other shop's, on a real PostgreSQL.
 */
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { relayPageSchema } from '../../../../../shared/relay-wire.js';
import { startRelay } from '../../../../../relay/http/index.js';
import { describePg, usePgCluster } from '../../../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../../../support/temp-dir.js';
import { deliver, get, LIVE_KEY, makeConfig, TEST_KEY, transaction } from '../../helpers.js';
import { seedPgTenant } from '../../stores.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const DOC = fileURLToPath(new URL('../../../../../relay/docs/postgresql.md', import.meta.url));

/** The document's ```sh block that starts with `# runbook: <name>`. */
function runbook(name: string): string {
  const text = readFileSync(DOC, 'utf8');
  const m = new RegExp('^```sh\\n# runbook: ' + name + '\\n([\\s\\S]*?)^```$', 'm').exec(text);
  if (!m) throw new Error(`relay/docs/postgresql.md has no "# runbook: ${name}" block`);
  return m[1] as string;
}

/** The block with the test cluster's connection settings in place of the document's, run by bash in `cwd`. */
async function runBlock(block: string, databaseUrl: string, cwd: string) {
  const url = new URL(databaseUrl);
  const settings = `export PGHOST=${url.hostname} PGPORT=${url.port} PGUSER=${url.username} PGDATABASE=${url.pathname.slice(1)}`;
  const lines = block.split('\n');
  const at = lines.findIndex((l) => l.startsWith('export PGHOST='));
  expect(at, 'the block shows its connection settings').toBeGreaterThanOrEqual(0);
  lines[at] = settings;
  return run('bash', ['-euo', 'pipefail', '-c', lines.join('\n')], { cwd, env: { ...process.env, PGPASSWORD: '' } });
}

describePg('relay/docs/postgresql.md: the PostgreSQL backup and restore runbook', () => {
  const cluster = usePgCluster();

  it('backs up (0600), restores in one transaction with new log ids, and tills read the restored log from 0', async () => {
    const work = tempDir('runbook');
    const { databaseUrl, masterKey, token } = await seedPgTenant(cluster());
    let relay = await startRelay({ databaseUrl, masterKey, config: {}, log: () => {} });
    try {
      const kept = [transaction('test'), transaction('test'), transaction('test')];
      for (const tx of kept) expect((await deliver(relay.url, tx, TEST_KEY)).status).toBe(200);
      const before = relayPageSchema.parse((await get(`${relay.url}/v1/transactions?after=0`, token)).json);

      // Twice at once (the same second, as a retried cron job might): two dumps, neither overwritten.
      await Promise.all([runBlock(runbook('backup'), databaseUrl, work), runBlock(runbook('backup'), databaseUrl, work)]);
      const dumps = readdirSync(work).filter((f) => /^relay-\d{8}T\d{6}Z-[A-Za-z0-9]{6}\.dump$/.test(f));
      expect(dumps).toHaveLength(2);
      for (const dump of dumps) expect(statSync(join(work, dump)).mode & 0o777).toBe(0o600);
      for (const dump of dumps) expect(statSync(join(work, dump)).size).toBeGreaterThan(0);

      // Delivered after the dump: gone after the restore.
      for (let i = 0; i < 2; i++) expect((await deliver(relay.url, transaction('test'), TEST_KEY)).status).toBe(200);
      await relay.close();

      await runBlock(runbook('restore'), databaseUrl, work);
      relay = await startRelay({ databaseUrl, masterKey, config: {}, log: () => {} });
      // A till whose cursor is past the backup (5) is told its log is another; from 0 it gets the dump's events.
      const ahead = await get(`${relay.url}/v1/transactions?after=5`, token);
      expect(ahead.status).toBe(409);
      const after = relayPageSchema.parse((await get(`${relay.url}/v1/transactions?after=0`, token)).json);
      expect(after.logId).not.toBe(before.logId);
      expect(after.items.map((e) => e.transaction.reference)).toEqual(kept.map((t) => t.reference));
      // The restored keys still open (same master key), and the log numbers on from the dump's last event.
      expect((await deliver(relay.url, transaction('test'), TEST_KEY)).json).toMatchObject({ seq: 4, duplicate: false });
    } finally {
      await relay.close();
      removeDir(work);
    }
  }, 120_000);

  it('moves a single-shop relay over as written: the token it makes reads the shop’s events in order, and no other shop’s', async () => {
    const work = tempDir('runbook-import');
    const [etc, opt, shop] = ['etc', 'opt', 'var-lib'].map((d) => join(work, d)) as [string, string, string];
    // The shop's SQLite relay, signed with the shop's own key (not one the other merchant holds).
    const ama = { publicId: 'pk_live_AmaShop03', secret: `sk_live_${'AmaShopSecret0000000003'}` };
    const single = await startRelay({ dataDir: shop, config: makeConfig({ keys: [ama] }).config, log: () => {} });
    const sent = [transaction('live'), transaction('live'), transaction('live')];
    try {
      for (const tx of sent) expect((await deliver(single.url, tx, ama)).status).toBe(200);
    } finally {
      await single.close();
    }
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      // The folder is the service user's, as systemd's StateDirectory= leaves it; the operator is root.
      chmodSync(work, 0o755);
      for (const f of [shop, ...readdirSync(shop).map((f) => join(shop, f))]) chownSync(f, 65534, 65534);
      chmodSync(shop, 0o700);
    }
    const other = await seedPgTenant(cluster(), 'MCH_other'); // holds TEST_KEY and LIVE_KEY
    mkdirSync(etc);
    mkdirSync(join(opt, 'node_modules/.bin'), { recursive: true });
    symlinkSync(join(ROOT, 'relay/dist/cli.js'), join(opt, 'node_modules/.bin/momo-relay'));
    writeFileSync(join(etc, 'relay.env'), `RELAY_DATABASE_URL=${other.databaseUrl}\n`, { mode: 0o600 });
    writeFileSync(join(etc, 'master.key'), `${other.masterKey.toString('base64')}\n`, { mode: 0o600 });
    writeFileSync(join(work, 'secret'), `${ama.secret}\n`, { mode: 0o600 });
    const block = runbook('import')
      .replaceAll('/etc/momo-relay', etc)
      .replaceAll('/opt/momo-relay', opt)
      .replaceAll('/var/lib/momo-relay', shop)
      .replace('pk_live_…', ama.publicId);
    const { stdout } = await run('bash', ['-c', block], { cwd: work, env: { PATH: process.env.PATH ?? '' } });
    expect(JSON.parse(stdout.split('\n').find((l) => l.startsWith('{'))!)).toMatchObject({ merchant: 'MCH_ama', copied: 3, skipped: 0 });
    const token = stdout.trim().split('\n').at(-1)!;
    expect(token).toMatch(/^rt_/);
    if (asRoot) for (const f of readdirSync(shop)) expect(statSync(join(shop, f)).uid, f).toBe(65534); // read, never taken over

    const relay = await startRelay({ databaseUrl: other.databaseUrl, masterKey: other.masterKey, config: {}, log: () => {} });
    try {
      const theirs = transaction('live');
      expect((await deliver(relay.url, theirs, LIVE_KEY)).status).toBe(200);
      const moved = relayPageSchema.parse((await get(`${relay.url}/v1/transactions?after=0`, token)).json);
      expect(moved.items.map((e) => e.transaction.reference)).toEqual(sent.map((t) => t.reference));
      const kept = relayPageSchema.parse((await get(`${relay.url}/v1/transactions?after=0`, other.token)).json);
      expect(kept.items.map((e) => e.transaction.reference)).toEqual([theirs.reference]);
      // The shop's key is its own: a delivery signed with it lands in its log, not the other's.
      const late = transaction('live');
      expect((await deliver(relay.url, late, ama)).json).toMatchObject({ seq: 4 });
    } finally {
      await relay.close();
      removeDir(work);
    }
  }, 120_000);
});
