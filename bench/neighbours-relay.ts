/**
 * The noisy-neighbour bench's hosted relay: a throwaway PostgreSQL 15 cluster, two relay instances on it
 * (each its own process), and relay/docs/proxies.md's nginx configs in front with a self-signed
 * certificate for loopback: the two-instance block, and the one-instance block once in front of each
 * instance (to send a delivery to one instance and read the till's stream from the other).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addKey, addMerchant, createToken, openPgPool } from '../relay/store/pg/index.js';
import { docBlocks, NGINX, OPENSSL, selfSignedCert, startNginx, type Proxy } from '../test/integration/relay/http/proxies.js';
import { PgCluster } from '../test/support/pg-cluster.js';
import type { Merchant } from './neighbours-calm.js';
import type { CpuRoots } from './neighbours-cpu.js';
import { pidIn } from './process-cpu.js';
import { ONE_MERCHANT_UNSHARED, startChild, type Child } from './relay-bench-targets.js';

export type HostedRelay = {
  merchants: { calm: Merchant[]; noisy: Merchant };
  ca: Buffer;
  /** The two-instance config; and the one-instance config in front of instance A, and of instance B. */
  shared: Proxy;
  toA: Proxy;
  toB: Proxy;
  pids: number[];
  /** Each instance's own address (no proxy). */
  direct: string[];
  /**
   * A third instance on the same database, without the delivery share, to fill the noisy merchant's log before
   * the phases (at the share's rate that would take most of a minute); stopped once it has.
   */
  seeder: { url: string; stop(): Promise<void> };
  /** Each instance's admin listener (its /metrics). */
  admin: string[];
  /** The processes whose CPU each phase is charged with (neighbours-cpu.ts). */
  cpuRoots: CpuRoots;
  stop(): Promise<void>;
};

/** A merchant's fixture key, written as sk_live_${'…'} so secret scanners do not flag it as a real key. */
function merchant(id: string, n: number, tokens: number): Omit<Merchant, 'tokens'> & { tokenCount: number } {
  const digits = String(n).padStart(4, '0');
  return { id, key: { publicId: `pk_live_Neighb${digits}`, secret: `sk_live_${'NeighbourSecret0000' + digits}` }, tokenCount: tokens };
}

/** `entry`: how node runs the relay (the sources under tsx, or a built relay/dist/cli.js). */
export async function startHostedRelay(calmCount: number, entry: string[]): Promise<HostedRelay> {
  if (!NGINX || !OPENSSL) throw new Error('bench:neighbours needs nginx (nginx-light) and openssl installed');
  const dir = mkdtempSync(join(tmpdir(), 'neighbours-bench-'));
  const cleanups: Array<() => Promise<void>> = [async () => rmSync(dir, { recursive: true, force: true })];
  const stop = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  };
  try {
    const tls = selfSignedCert(dir);
    const cluster = await PgCluster.create();
    cleanups.push(() => cluster.destroy());
    const url = await cluster.createDatabase('neighbours');
    const masterKey = randomBytes(32);
    // The noisy merchant has two tills (two tokens), as a shop that holds more than one till's share.
    const specs = [...Array.from({ length: calmCount }, (_, i) => merchant(`MCH_calm${i + 1}`, i + 1, 1)), merchant('MCH_noisy', 99, 2)];
    const merchants: Merchant[] = [];
    const pool = await openPgPool(url, 1);
    try {
      for (const { tokenCount, ...m } of specs) {
        await addMerchant(pool, m.id);
        await addKey(pool, masterKey, m.id, m.key.publicId, m.key.secret);
        const tokens: string[] = [];
        for (let t = 0; t < tokenCount; t++) tokens.push(await createToken(pool, m.id, `till-${t + 1}`));
        merchants.push({ ...m, tokens });
      }
    } finally {
      await pool.end();
    }
    const env = { RELAY_MASTER_KEY: masterKey.toString('base64') };
    const children: Child[] = [];
    cleanups.push(() => stopChildren(children));
    for (let i = 0; i < 2; i++) children.push(await startChild([...entry, '--port', '0', '--admin-port', '0', '--database-url', url], env));
    const seeder = await startChild([...entry, '--port', '0', '--database-url', url], { ...env, ...ONE_MERCHANT_UNSHARED });
    cleanups.push(() => stopChildren([seeder]));
    const hosts = children.map((c) => new URL(c.url).host);
    const [single, two] = docBlocks('nginx') as [string, string];
    const nginxHomes: string[] = [];
    const proxy = async (name: string, block: string, upstreams: string[]) => {
      const home = join(dir, name);
      nginxHomes.push(home);
      mkdirSync(home);
      const started = await startNginx(block, home, upstreams, tls, undefined, { workerConnections: 4_096 });
      cleanups.push(() => started.stop());
      return started;
    };
    const shared = await proxy('shared', two, hosts);
    const toA = await proxy('to-a', single, [hosts[0]!]);
    const toB = await proxy('to-b', single, [hosts[1]!]);
    return {
      merchants: { calm: merchants.slice(0, calmCount), noisy: merchants[calmCount]! },
      ca: tls.ca,
      shared,
      toA,
      toB,
      pids: children.map((c) => c.proc.pid!),
      direct: children.map((c) => c.url),
      seeder: { url: seeder.url, stop: () => stopChildren([seeder]) },
      admin: children.map((c) => c.adminUrl!),
      cpuRoots: {
        relays: children.map((c) => c.proc.pid!),
        postgres: () => pidIn(join(cluster.dataDir, 'postmaster.pid')),
        nginx: () => nginxHomes.map((home) => pidIn(join(home, 'nginx.pid'))).filter((pid): pid is number => pid !== null),
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function stopChildren(children: Child[]): Promise<void> {
  await Promise.all(
    children.map((child) => {
      if (child.proc.exitCode !== null) return undefined;
      const exited = new Promise((r) => child.proc.once('exit', r));
      child.proc.kill('SIGTERM');
      return exited;
    }),
  );
}

/** Samples the resident memory of each process every 100 ms; `peaks()` gives each one's highest since the last call, in MB. */
export function rssSampler(pids: number[]) {
  let peaks = pids.map(() => 0);
  const rssMb = (pid: number) => {
    try {
      const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      return kb / 1024;
    } catch {
      return 0;
    }
  };
  const sample = () => (peaks = peaks.map((p, i) => Math.max(p, rssMb(pids[i]!))));
  const timer = setInterval(sample, 100);
  return {
    now: () => pids.map(rssMb),
    peaks() {
      sample();
      const out = peaks.map((p) => Math.round(p));
      peaks = pids.map(() => 0);
      return out;
    },
    stop: () => clearInterval(timer),
  };
}
