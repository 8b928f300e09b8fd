import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chownSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RELAY_TOKEN, relayPageSchema } from '../../../../shared/relay-wire.js';
import { addTillToken, hashRelayToken } from '../../../../relay/ops/index.js';
import { deliver, get, LIVE_KEY, runRelayCli, spawnRelay, TEST_KEY, transaction, type PostResult } from '../helpers.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';
import { blockAfter, readDoc } from '../../../support/doc-blocks.js';
import { sleep } from '../../../support/wait-for.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** A document's block run by bash as the operator would, set -euo pipefail. */
function runBash(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  proc.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  proc.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve) => proc.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('relay CLI', () => {
  const tmp = tempDir('relay-cli');
  const configFile = join(tmp, 'relay.json');
  const dataDir = join(tmp, 'data');
  writeFileSync(configFile, JSON.stringify({ keys: [TEST_KEY, LIVE_KEY], signedPayload: 'body' }, null, 2));
  let token = '';

  afterAll(() => removeDir(tmp));

  it('token create prints a new token once and stores only its hash', async () => {
    const r = await runRelayCli(['token', 'create', '--label', 'front-counter', '--config', configFile]);
    expect(r.code).toBe(0);
    token = r.stdout.trim();
    expect(token).toMatch(RELAY_TOKEN);
    const saved = readFileSync(configFile, 'utf8');
    expect(saved).not.toContain(token);
    const config = JSON.parse(saved) as { tills: Array<{ label: string; tokenHash: string }> };
    expect(config.tills).toEqual([expect.objectContaining({ label: 'front-counter', tokenHash: hashRelayToken(token) })]);
    const dup = await runRelayCli(['token', 'create', '--label', 'front-counter', '--config', configFile]);
    expect(dup.code).not.toBe(0);
    expect(dup.stderr).toContain('tills.1.label');
  });

  it('token list pages by label as every list does: --limit, then --after the cursor it gives', async () => {
    const file = join(tmp, 'paged.json');
    writeFileSync(file, JSON.stringify({ keys: [TEST_KEY] }));
    for (const label of ['till-c', 'till-a', 'till-b']) addTillToken(file, label);
    const first = await runRelayCli(['token', 'list', '--config', file, '--limit', '2']);
    expect(first.stdout).toMatch(/^till-a\t\S+\ntill-b\t\S+\n$/);
    const cursor = /^More follow: the same command with --after (\S+)$/m.exec(first.stderr)![1]!;
    addTillToken(file, 'till-0'); // sorts before the cursor: not shown on the next page
    const next = await runRelayCli(['token', 'list', '--config', file, '--after', cursor, '--json']);
    expect((JSON.parse(next.stdout) as Array<{ label: string }>).map((t) => t.label)).toEqual(['till-c']);
  });

  // relay/docs/operator-guide.md "One shop (SQLite) under systemd": root runs the token commands on the file the relay's
  // user reads; a new file owned by root would end that user's reloads (EACCES) and then its next start.
  const asRoot = process.getuid?.() === 0;
  it.skipIf(!asRoot)(
    `token create and revoke keep the config file's owner when run as root${asRoot ? '' : ' (skipped: not root, cannot chown)'}`,
    async () => {
      const owned = join(tmp, 'owned.json');
      writeFileSync(owned, JSON.stringify({ keys: [TEST_KEY] }), { mode: 0o600 });
      chownSync(owned, 65534, 65534);
      expect((await runRelayCli(['token', 'create', '--label', 'side-door', '--config', owned])).code).toBe(0);
      expect(statSync(owned)).toMatchObject({ uid: 65534, gid: 65534 });
      expect(statSync(owned).mode & 0o777).toBe(0o600);
      expect((await runRelayCli(['token', 'revoke', '--label', 'side-door', '--config', owned])).code).toBe(0);
      expect(statSync(owned)).toMatchObject({ uid: 65534, gid: 65534 });
    },
  );

  it('refuses a bad config, naming the field (file and environment override)', async () => {
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, JSON.stringify({ keys: [{ publicId: 'pk_nope', secret: LIVE_KEY.secret }] }));
    const r = await runRelayCli(['--port', '0', '--data', dataDir, '--config', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('keys.0.publicId');
    expect(r.stdout).toBe('');
    const env = await runRelayCli(['--port', '0', '--data', dataDir, '--config', configFile], { RELAY_SIGNED_PAYLOAD: 'everything' });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('signedPayload');
    expect(env.stderr).toContain('RELAY_SIGNED_PAYLOAD');
    const mixed = join(tmp, 'mixed.json');
    writeFileSync(mixed, JSON.stringify({ keys: [{ publicId: LIVE_KEY.publicId, secret: TEST_KEY.secret }] }));
    const m = await runRelayCli(['--port', '0', '--data', dataDir, '--config', mixed]);
    expect(m.stderr).toContain('keys.0.secret');
    expect(m.stderr).not.toContain(TEST_KEY.secret);
    const days = await runRelayCli(['--port', '0', '--data', dataDir, '--config', configFile, '--retention-days', 'ninety']);
    expect(days.code).toBe(2);
    expect(days.stderr).toContain('--retention-days: must be a whole number of days');
    const daysEnv = await runRelayCli(['--port', '0', '--data', dataDir, '--config', configFile], { RELAY_RETENTION_DAYS: '-1' });
    expect(daysEnv.code).toBe(2);
    expect(daysEnv.stderr).toContain('RELAY_RETENTION_DAYS: must be a whole number of days');
  });

  it('serves after a ready line, picks up new tokens, and stops cleanly on SIGTERM finishing in-flight deliveries', async () => {
    const relay = await spawnRelay(['--port', '0', '--data', dataDir, '--config', configFile], {
      RELAY_MAX_BODY_BYTES: '2048',
    });
    expect(relay.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ok = await deliver(relay.url, transaction('live'), LIVE_KEY);
    expect(ok.status).toBe(200);
    // The env override took effect.
    const big = await deliver(relay.url, { ...transaction('live'), description: 'z'.repeat(3000) }, LIVE_KEY);
    expect(big.status).toBe(413);
    expect((await get(`${relay.url}/v1/transactions`, token)).status).toBe(200);

    const second = await runRelayCli(['token', 'create', '--label', 'back-office', '--config', configFile]);
    const token2 = second.stdout.trim();
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      await sleep(100);
      status = (await get(`${relay.url}/v1/transactions`, token2)).status;
    }
    expect(status).toBe(200);

    const inflight: Array<Promise<PostResult>> = [];
    for (let i = 0; i < 20; i++) {
      inflight.push(deliver(relay.url, transaction('live'), LIVE_KEY).catch(() => ({ status: -2, body: '', json: null })));
    }
    await sleep(5);
    relay.proc.kill('SIGTERM');
    const results = await Promise.all(inflight);
    expect(await relay.exited).toBe(0);
    expect(relay.stderr()).toContain('"relay_stopped"');
    for (const r of results) expect([200, 503, -1, -2]).toContain(r.status);

    const again = await spawnRelay(['--port', '0', '--data', dataDir, '--config', configFile]);
    const page = relayPageSchema.parse((await get(`${again.url}/v1/transactions?limit=500`, token)).json);
    const storedSeqs = new Set(page.items.map((e) => e.seq));
    for (const r of results.filter((x) => x.status === 200)) {
      expect(storedSeqs.has((r.json as { seq: number }).seq)).toBe(true);
    }
    again.proc.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });

  it("operator-guide.md's Log identity block, run as written on a stopped relay's folder: a new log id, then the same id shown", async () => {
    const folder = join(tmp, 'log-id');
    const block = blockAfter(readDoc('relay/docs/operator-guide.md'), '## Log identity', 'sh').replaceAll('/var/lib/momo-relay', folder);
    const relay = await spawnRelay(['--port', '0', '--data', folder, '--config', configFile]);
    relay.proc.kill('SIGTERM'); // the relay stopped, its folder as it left it
    expect(await relay.exited).toBe(0);
    const before = await runRelayCli(['log-id', 'show', '--data', folder]);
    expect(before.code).toBe(0);
    // `momo-relay` is the installed relay: the built relay/dist/cli.js here.
    const ran = await runBash(`momo-relay() { node ${JSON.stringify(join(ROOT, 'relay/dist/cli.js'))} "$@"; }\n${block}`);
    expect(ran.stderr).toContain('New log id written.');
    expect(ran.code).toBe(0);
    const [made, shown] = ran.stdout.trim().split('\n');
    expect(made).toMatch(/\S/);
    expect(shown).toBe(made);
    expect(made).not.toBe(before.stdout.trim());
  });
});
