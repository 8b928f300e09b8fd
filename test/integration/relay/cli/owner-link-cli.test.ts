/**
 * The operator lists and turns off the owner's phone links with the CLI, as typed, on both
 * stores (`owner-link list|revoke`: PostgreSQL with RELAY_DATABASE_URL, the single shop's SQLite with
 * --data) while the relay runs; a page already open hears within seconds that the relay's operator
 * turned it off. On PostgreSQL the change is audited as `cli:<user>`.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startRelay } from '../../../../relay/http/index.js';
import { cliActor, listAudit, openPgPool } from '../../../../relay/store/pg/index.js';
import { closeAfterEach } from '../../../support/close-after-each.js';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';
import { makeConfig, runRelayCli, SseClient } from '../helpers.js';
import { OPERATOR, openPage } from '../owner-page.js';
import { seedPgTenant, TEST_MERCHANT } from '../stores.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The sh block under "Listing and turning off phone links" in relay/docs/http-api.md. */
function docBlock(): string {
  const doc = readFileSync(`${ROOT}relay/docs/http-api.md`, 'utf8');
  const m = /```sh\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf('### Listing and turning off phone links')));
  if (!m?.[1]) throw new Error('no sh block under "Listing and turning off phone links" in relay/docs/http-api.md');
  return m[1];
}

const revokedMessage = (sse: SseClient) => JSON.parse(sse.messages.find((m) => m.event === 'revoked')!.data) as { message: string };

describe('owner-link on the single shop’s SQLite relay', () => {
  const open = closeAfterEach();

  it(
    'lists (text and --json) and turns a link off while the relay runs; the open page says the operator did it',
    { timeout: 120_000 },
    async () => {
      const dir = tempDir('owner-link-cli');
      open.push({ close: async () => removeDir(dir) });
      const made = makeConfig();
      const relay = await startRelay({ dataDir: dir, config: made.config, log: () => {} });
      open.push(relay);
      const page = await openPage(relay.url, made.token, "Auntie Efua's phone");
      open.push({ close: async () => page.sse.close() });
      const env = { RELAY_DATABASE_URL: '' };

      const json = await runRelayCli(['owner-link', 'list', '--data', dir, '--json'], env);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual([
        expect.objectContaining({
          id: page.id,
          merchantId: 'MCH_default',
          label: "Auntie Efua's phone",
          environment: 'live',
          revokedAt: null,
        }),
      ]);
      expect(json.stdout).not.toContain(page.token);
      const text = await runRelayCli(['owner-link', 'list', '--data', dir], env);
      expect(text.stdout).toMatch(
        new RegExp(`^${page.id}\\tlive\\t"Auntie Efua's phone"\\ttimeZone=Africa/Accra\\tcreated=\\S+\\tlastUsed=\\S+\\ton\\n$`),
      );

      const off = await runRelayCli(['owner-link', 'revoke', '--id', page.id, '--data', dir], env);
      expect(off.code).toBe(0);
      expect(off.stderr).toContain(`Link ${page.id} ("Auntie Efua's phone", LIVE) of MCH_default turned off`);
      await page.sse.waitFor((c) => c.messages.some((m) => m.event === 'revoked'), 5000);
      expect(revokedMessage(page.sse)).toEqual({ message: OPERATOR });

      const again = await runRelayCli(['owner-link', 'revoke', '--id', page.id, '--data', dir], env);
      expect(again.code).toBe(0);
      expect(again.stderr).toMatch(/was already off .* by the operator\); nothing changed/);
      const unknown = await runRelayCli(['owner-link', 'revoke', '--id', 'ol_AAAAAAAAAAAA', '--data', dir], env);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr.trim()).toBe('No owner link ol_AAAAAAAAAAAA');
      const mixed = await runRelayCli(['owner-link', 'list', '--data', dir], { RELAY_DATABASE_URL: 'postgres://127.0.0.1:1/x' });
      expect(mixed.code).toBe(2);
      expect(mixed.stderr).toMatch(/refusing to guess/);
      const verb = await runRelayCli(['owner-link', 'show', '--data', dir], env);
      expect(verb.stderr).toMatch(/Unknown command "owner-link show": .*owner-link list, .*owner-link revoke/);
    },
  );
});

describePg('owner-link on PostgreSQL', () => {
  const cluster = usePgCluster();
  const open = closeAfterEach();

  it(
    'lists a merchant’s links and turns one off as typed, audited; the page open on the relay hears it',
    { timeout: 120_000 },
    async () => {
      const { databaseUrl, masterKey, token } = await seedPgTenant(cluster());
      const relay = await startRelay({ databaseUrl, masterKey, config: {}, log: () => {} });
      open.push(relay);
      const page = await openPage(relay.url, token, "Auntie Efua's phone");
      open.push({ close: async () => page.sse.close() });
      const env = { RELAY_DATABASE_URL: databaseUrl };

      const listed = await runRelayCli(['owner-link', 'list', '--merchant', TEST_MERCHANT, '--json'], env);
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: page.id, merchantId: TEST_MERCHANT, revokedAt: null })]);
      expect((await runRelayCli(['owner-link', 'list'], env)).stderr.trim()).toMatch(/owner-link list needs --merchant MCH_…$/);

      const off = await runRelayCli(['owner-link', 'revoke', '--id', page.id], env);
      expect(off.code).toBe(0);
      await page.sse.waitFor((c) => c.messages.some((m) => m.event === 'revoked'), 5000);
      expect(revokedMessage(page.sse)).toEqual({ message: OPERATOR });
      const after = JSON.parse((await runRelayCli(['owner-link', 'list', '--merchant', TEST_MERCHANT, '--json'], env)).stdout) as unknown[];
      expect(after).toEqual([expect.objectContaining({ id: page.id, revokedBy: 'operator', revokedAt: expect.any(String) })]);

      const pool = await openPgPool(databaseUrl, 1);
      open.push({ close: () => pool.end() });
      const audit = (await listAudit(pool, { merchantId: TEST_MERCHANT })).filter((a) => a.action === 'owner-link.revoke');
      expect(audit).toEqual([expect.objectContaining({ actor: cliActor(), target: page.id })]);
      expect((await runRelayCli(['owner-link', 'revoke', '--id', 'ol_AAAAAAAAAAAA'], env)).code).toBe(2);
    },
  );

  it('the document’s commands run as written', { timeout: 120_000 }, async () => {
    const { databaseUrl } = await seedPgTenant(cluster(), 'MCH_ama');
    const pool = await openPgPool(databaseUrl, 1);
    open.push({ close: () => pool.end() });
    // The link the document names (made as the relay makes one; only a token's hash is stored).
    await pool.query(
      `INSERT INTO owner_links (id, merchant_id, token_hash, environment, label, time_zone, created_by, created_at)
       VALUES ('ol_Xa8_2kPq9mZc', 'MCH_ama', $1, 'live', 'Auntie Efua''s phone', 'Africa/Accra', 'front-counter', $2)`,
      [`sha256:${'a'.repeat(64)}`, new Date().toISOString()],
    );
    // `$relay` as "Setting up" sets it, with the built relay in the place of the installed one.
    const proc = spawn('bash', ['-euo', 'pipefail', '-c', `relay="node ${ROOT}relay/dist/cli.js"\n${docBlock()}`], {
      cwd: ROOT,
      env: { ...process.env, RELAY_DATABASE_URL: databaseUrl },
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    proc.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
    expect(stderr).toContain('Link ol_Xa8_2kPq9mZc ("Auntie Efua\'s phone", LIVE) of MCH_ama turned off');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([expect.objectContaining({ id: 'ol_Xa8_2kPq9mZc', revokedAt: null })]);
    const { rows } = await pool.query("SELECT revoked_by FROM owner_links WHERE id = 'ol_Xa8_2kPq9mZc'");
    expect(rows[0].revoked_by).toBe('operator');
  });
});
