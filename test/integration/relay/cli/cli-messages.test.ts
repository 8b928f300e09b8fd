/**
 * The CLI's messages name the flag the operator typed and the command as they type it (`merchant add
 * --id bad` answers about `--id`, not `--merchant`), and a single-shop command with a PostgreSQL database
 * also named refuses the mix instead of acting on one store silently.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';
import { LIVE_KEY, runRelayCli as runBuilt } from '../helpers.js';

/** These messages name the command as `npm run relay --`, so the CLI runs as that runs it: relay/cli.ts through tsx. */
const runRelayCli = (args: string[], env: Record<string, string> = {}) => runBuilt(args, env, { source: true });

describe('relay CLI: one store per command', () => {
  const tmp = tempDir('relay-mixed');
  afterAll(() => removeDir(tmp));
  // Nothing listens there: the refusal must come before any connection.
  const env = { RELAY_DATABASE_URL: 'postgres://relay@127.0.0.1:1/relay' };

  it('token --config with RELAY_DATABASE_URL exported is refused, the file untouched', async () => {
    const file = join(tmp, 'relay.json');
    writeFileSync(file, JSON.stringify({ keys: [LIVE_KEY] }));
    const r = await runRelayCli(['token', 'create', '--label', 'front-counter', '--config', file], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^npm run relay -- token: --config names a single shop's store \(the config file .*relay\.json\), but RELAY_DATABASE_URL \(exported in this shell\) names a PostgreSQL database/,
    );
    expect(r.stderr).toContain('unset RELAY_DATABASE_URL');
    expect(r.stderr).toContain('give --merchant MCH_…');
    expect(r.stdout).toBe('');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ keys: [LIVE_KEY] });
  });

  it('log-id --data with --database-url is refused', async () => {
    const r = await runRelayCli(['log-id', 'new', '--data', tmp, '--database-url', env.RELAY_DATABASE_URL], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^npm run relay -- log-id: --data names a single shop's store \(the SQLite log in .*\), but --database-url names/,
    );
  });
});

describePg('relay CLI messages on PostgreSQL', () => {
  const cluster = usePgCluster();
  let env: Record<string, string> = {};
  beforeAll(async () => {
    env = { RELAY_DATABASE_URL: await cluster().createDatabase() };
  });

  it('merchant add names --id (not --merchant) and the next commands as typed', async () => {
    const bad = await runRelayCli(['merchant', 'add', '--id', 'shop 2'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toMatch(/^--id: must look like MCH_/);
    expect(bad.stderr).not.toContain('--merchant');

    const missing = await runRelayCli(['merchant', 'add'], env);
    expect(missing.stderr.trim()).toBe('npm run relay -- merchant add needs --id MCH_…');

    const ok = await runRelayCli(['merchant', 'add', '--id', 'MCH_words'], env);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain('Next: npm run relay -- key add --merchant MCH_words');
  });

  it('an unknown verb lists the commands there are; a missing merchant says how to add it', async () => {
    const unknown = await runRelayCli(['merchant', 'frobnicate'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown command "merchant frobnicate": npm run relay -- merchant add, npm run relay -- merchant list/);

    const noLabel = await runRelayCli(['token', 'create', '--merchant', 'MCH_words'], env);
    expect(noLabel.stderr.trim()).toBe('npm run relay -- token create needs --label <name>');

    const noMerchant = await runRelayCli(['token', 'create', '--merchant', 'MCH_nobody', '--label', 'x'], env);
    expect(noMerchant.stderr.trim()).toBe('No merchant MCH_nobody (add it first: npm run relay -- merchant add --id MCH_nobody)');
  });
});

describe('relay CLI: a reader that stops early', () => {
  it('a closed stdout (`momo-relay … | head`) ends the command quietly, with no EPIPE stack trace', async () => {
    const { spawn } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    const proc = spawn(process.execPath, ['--import', 'tsx', 'relay/cli.ts', '--help'], { cwd: root });
    // The reader is gone before the command writes, as when `head` has read its lines and exited.
    proc.stdout.destroy();
    let stderr = '';
    proc.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(code).toBe(0);
  }, 30_000);
});
