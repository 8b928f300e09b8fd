/**
 * The systemd units of relay/docs/operator-guide.md, checked as far as a machine without systemd as PID 1 allows:
 * - `systemd-analyze verify` on the unit, on the template unit the sed of relay/docs/proxies.md's "Two instances
 *   on one machine" makes (an instance of it), and on the single-shop unit its sed makes, each read from the
 *   documents: exit 0 and nothing said (verify exits 0 on an unknown setting, only warning on stderr: a
 *   misspelt one is caught here);
 * - every path the unit names is made by the guide's own install steps, run here with / in a temporary
 *   folder (the npm install is install.test.ts's): WorkingDirectory, EnvironmentFile and the master key file
 *   (mode 0600), the config file; the entry is the package's own bin; the user is the one `useradd` makes,
 *   and the single shop's --data is that user's home, the one path it may write (ReadWritePaths).
 * Skipped by name where systemd-analyze is absent (Debian: apt-get install systemd). Whether systemd then
 * runs the unit so (the sandbox, Restart=) is not something verify checks: see relay/docs/operator-guide.md.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startRelay } from '../../../../relay/http/index.js';
import { blockAfter, readDoc } from '../../../support/doc-blocks.js';
import { makeConfig } from '../helpers.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const guide = readDoc('relay/docs/operator-guide.md');
const proxies = readDoc('relay/docs/proxies.md');
const postgres = readDoc('relay/docs/postgresql.md');
const ANALYZE = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((p) => existsSync(p));

const UNIT = blockAfter(guide, 'A systemd unit per instance', 'ini');
/** A unit's settings: name → values, in order. */
function settings(unit: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const m of unit.matchAll(/^([A-Za-z]+)=(.*)$/gm)) found.set(m[1]!, [...(found.get(m[1]!) ?? []), m[2]!]);
  return found;
}
const one = (unit: string, key: string) => settings(unit).get(key)?.[0] ?? '';

const tmp = tempDir('relay-systemd');
const units = join(tmp, 'system');
mkdirSync(units);
afterAll(() => removeDir(tmp));

/** `systemd-analyze verify` on a unit file; its complaints (stderr) and exit status. */
async function verify(file: string): Promise<{ code: number; said: string }> {
  const r = await run(ANALYZE!, ['verify', file], { cwd: tmp }).then(
    (ok) => ({ code: 0, said: ok.stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, said: e.stderr }),
  );
  return { code: r.code, said: r.said.trim() };
}

/** The unit as a file: its node where this machine has one (the guide's /usr/bin/node, else this node). */
function save(name: string, unit: string): string {
  const file = join(units, name);
  writeFileSync(file, existsSync('/usr/bin/node') ? unit : unit.replace('/usr/bin/node ', `${process.execPath} `));
  return file;
}

describe.skipIf(!ANALYZE)(
  `relay/docs/operator-guide.md's systemd units pass systemd-analyze verify${ANALYZE ? '' : ' (skipped: systemd-analyze is not installed, apt-get install systemd)'}`,
  () => {
    it('the unit, with nothing said; a misspelt setting would be', async () => {
      expect(await verify(save('momo-relay.service', UNIT))).toEqual({ code: 0, said: '' });
      const misspelt = await verify(save('misspelt.service', UNIT.replace('ProtectSystem=', 'ProtectSytem=')));
      expect(misspelt.said).toContain("Unknown key 'ProtectSytem'");
    });

    it('an instance of the template unit "Two instances on one machine" makes', async () => {
      const sed = blockAfter(proxies, '## Two instances on one machine', 'sh').split('\n')[0]!;
      expect(sed).toMatch(/^sed .* > \/etc\/systemd\/system\/momo-relay@\.service$/);
      save('momo-relay.service', UNIT);
      await run('bash', ['-e', '-c', sed.replaceAll('/etc/systemd/system', units)]);
      const template = readFileSync(join(units, 'momo-relay@.service'), 'utf8');
      expect(one(template, 'ExecStart')).toContain('--host 127.0.0.1 --port %i ');
      save('momo-relay@.service', template);
      expect(await verify(join(units, 'momo-relay@8787.service'))).toEqual({ code: 0, said: '' });
    });

    it('the single-shop unit its sed makes: no database settings, and --data writable', async () => {
      const file = save('momo-relay.service', UNIT);
      const steps = blockAfter(guide, '### One shop (SQLite) under systemd', 'sh').split('\n');
      const sed = steps.slice(
        0,
        steps.findIndex((l) => l.startsWith('chmod ')),
      );
      await run('bash', ['-e', '-c', sed.join('\n').replaceAll('/etc/systemd/system/momo-relay.service', file)]);
      const shop = readFileSync(file, 'utf8');
      expect(await verify(file)).toEqual({ code: 0, said: '' });
      expect(settings(shop).has('EnvironmentFile')).toBe(false);
      expect(settings(shop).has('Environment')).toBe(false);
      const data = /--data (\S+)/.exec(one(shop, 'ExecStart'))![1]!;
      expect(one(shop, 'ProtectSystem')).toBe('strict');
      expect(one(shop, 'ReadWritePaths').split(/\s+/)).toContain(data);
      expect(steps).toContain(`chmod 700 ${data}`);
    });
  },
);

describe("relay/docs/operator-guide.md's systemd unit names what its install steps make", () => {
  const fsRoot = join(tmp, 'root');
  const at = (path: string) => join(fsRoot, path);
  const install = blockAfter(guide, 'On the server (', 'sh').split('\n');

  it('the user is the one useradd makes; its home is the single shop’s data folder', () => {
    const useradd = install.find((l) => l.startsWith('useradd '))!;
    expect(useradd.split(' ').at(-1)).toBe(one(UNIT, 'User'));
    const home = /--home-dir (\S+)/.exec(useradd)![1]!;
    expect(blockAfter(guide, '### One shop (SQLite) under systemd', 'sh')).toContain(`--data ${home}`);
    expect(install.find((l) => l.startsWith('chown '))).toMatch(new RegExp(` ${one(UNIT, 'User')}: `));
  });

  it('the files and folders: made by the install, the secrets 0600; the entry is the package’s bin', async () => {
    // The install's own lines but npm's (install.test.ts runs it) and the host's (useradd, chown).
    const steps = install
      .filter((l) => !/^(useradd|chown|npm) /.test(l))
      .map((l) => l.replaceAll('/opt/momo-relay', at('/opt/momo-relay')).replaceAll('/etc/momo-relay', at('/etc/momo-relay')));
    mkdirSync(fsRoot);
    await run('bash', ['-e', '-c', steps.join('\n')], { cwd: tmp });
    const s = settings(UNIT);
    const keyFile = s
      .get('Environment')!
      .map((e) => /^RELAY_MASTER_KEY_FILE=(.+)$/.exec(e)?.[1])
      .find(Boolean)!;
    const config = /--config (\S+)/.exec(one(UNIT, 'ExecStart'))![1]!;
    for (const path of [one(UNIT, 'WorkingDirectory'), one(UNIT, 'EnvironmentFile'), keyFile, config]) {
      expect(existsSync(at(path)), path).toBe(true);
    }
    for (const secret of [one(UNIT, 'EnvironmentFile'), keyFile]) expect(statSync(at(secret)).mode & 0o777, secret).toBe(0o600);
    expect(Buffer.from(readFileSync(at(keyFile), 'utf8').trim(), 'base64')).toHaveLength(32);

    const [node, entry] = one(UNIT, 'ExecStart').split(' ');
    expect(node).toBe('/usr/bin/node');
    expect(guide.text).toContain('so that `node` is `/usr/bin/node` as the\nsystemd unit below says');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'relay/package.json'), 'utf8')) as { name: string; bin: Record<string, string> };
    expect(entry).toBe(`${one(UNIT, 'WorkingDirectory')}/node_modules/${pkg.name}/${pkg.bin['momo-relay']}`);
    expect(install).toContain(`cd ${one(UNIT, 'WorkingDirectory')}`);
  });

  it('each instance of the template gets its own admin port, the unit its retention, and the scrape config names those ports', async () => {
    const lines = blockAfter(proxies, '## Two instances on one machine', 'sh').split('\n');
    const file = join(tmp, 'admin-ports');
    mkdirSync(file, { recursive: true });
    writeFileSync(join(file, 'momo-relay.service'), UNIT);
    await run('bash', ['-e', '-c', lines[0]!.replaceAll('/etc/systemd/system', file)]);
    const template = one(readFileSync(join(file, 'momo-relay@.service'), 'utf8'), 'ExecStart');
    const instances = [...lines[1]!.matchAll(/momo-relay@(\d+)/g)].map((m) => m[1]!);
    expect(instances).toEqual(['8787', '8788']);
    const started = instances.map((i) => template.replaceAll('%i', i));
    const adminPorts = started.map((line) => /--admin-port (\d+)/.exec(line)?.[1]);
    expect(adminPorts).toEqual(['18787', '18788']);
    for (const line of started) expect(line).not.toContain('--admin-host'); // loopback
    const retention = /--retention-days (\d+)/.exec(one(UNIT, 'ExecStart'))?.[1];
    expect(retention).toBe('90');
    // The Prometheus config scrapes exactly those listeners, at the path the admin listener serves.
    const scrape = blockAfter(postgres, "Scrape every instance's admin listener", 'yaml');
    expect([...scrape.matchAll(/'127\.0\.0\.1:(\d+)'/g)].map((m) => m[1])).toEqual(adminPorts);
    const path = /metrics_path: (\S+)/.exec(scrape)![1]!;
    const data = join(tmp, 'scraped');
    const relay = await startRelay({
      dataDir: data,
      adminPort: 0,
      retentionDays: Number(retention),
      config: makeConfig().config,
      log: () => {},
    });
    try {
      const res = await fetch(`${relay.adminUrl}${path}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^relay_event_log_last_seq 0$/m);
    } finally {
      await relay.close();
    }
  });

  it('on PostgreSQL it writes nothing on disk: no --data, and nothing made writable', () => {
    expect(one(UNIT, 'ExecStart')).not.toContain('--data');
    expect(settings(UNIT).has('ReadWritePaths')).toBe(false);
    expect(one(UNIT, 'ProtectSystem')).toBe('strict');
    expect(one(UNIT, 'Restart')).toBe('always');
    expect(one(UNIT, 'StartLimitIntervalSec')).toBe('0');
  });
});
