/**
 * What the relay benchmark measures, each as its own processes on this machine: a bare node:http
 * server, the relay on SQLite, and the relay on PostgreSQL with one or several instances (a
 * throwaway PostgreSQL 15 cluster unless --database-url names one).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRelayToken } from '../relay/ops/index.js';
import { openPgPool, addKey, addMerchant, createToken } from '../relay/store/pg/index.js';
import { PgCluster } from '../test/support/pg-cluster.js';
import type { BenchKey } from './relay-bench-load.js';
import { pidIn, processTable, treeCpuMs } from './process-cpu.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
// Fixture keys written as sk_live_${'…'} so secret scanners do not flag them as real keys.
export const KEY: BenchKey = { publicId: 'pk_live_Bench00001', secret: `sk_live_${'BenchSecret0000000000001'}` };
const LATENCY_KEY: BenchKey = { publicId: 'pk_live_Bench00002', secret: `sk_live_${'BenchSecret0000000000002'}` };

export type StoreName = 'bare' | 'sqlite' | 'postgres';

export type Target = {
  store: StoreName;
  instances: number;
  urls: string[];
  /** Where the latency round posts, and where its till listens (another instance when there are several). */
  latency?: { postUrl: string; sseUrl: string; token: string; after: number; key: BenchKey; metricsUrl?: string };
  /** The processes whose CPU (each with everything under it) a delivery to this target costs: its instances, and its database's postmaster when the bench runs it. */
  cpuRoots: () => Array<number | null>;
  stop(): Promise<void>;
};

const BARE_SERVER = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"received":true}'); });
});
server.keepAliveTimeout = 10000;
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ ready: true, url: 'http://127.0.0.1:' + server.address().port }) + '\\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

export type Child = { proc: ChildProcess; url: string; adminUrl?: string };

/** Starts `node args` in the repository and resolves once its first stdout line (JSON with a url) is out. */
export function startChild(args: string[], env: Record<string, string> = {}): Promise<Child> {
  const proc = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, ...env } });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        const line = JSON.parse(out.slice(0, nl)) as { url: string; adminUrl?: string };
        resolve({ proc, url: line.url, ...(line.adminUrl ? { adminUrl: line.adminUrl } : {}) });
      }
    });
    proc.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

async function stopChildren(children: Child[]): Promise<void> {
  await Promise.all(
    children.map((child) => {
      const exited = new Promise((r) => child.proc.once('exit', r));
      child.proc.kill('SIGTERM');
      return exited;
    }),
  );
}

/** CPU milliseconds used so far by the target's processes (its instances; its database's when the bench runs it). */
export function cpuMsOf(target: Target): number {
  const table = processTable();
  return target.cpuRoots().reduce((sum: number, pid) => sum + treeCpuMs(table, pid), 0);
}

export async function startBare(): Promise<Target> {
  const child = await startChild(['-e', BARE_SERVER]);
  const pid = child.proc.pid!;
  return { store: 'bare', instances: 1, urls: [child.url], cpuRoots: () => [pid], stop: () => stopChildren([child]) };
}

/**
 * The relay on SQLite in a throwaway data folder. `entry`: how node runs it (the sources under tsx by
 * default; bench:relay-paired passes a built cli.js, or node flags before one).
 */
export async function startSqlite(entry: string[] = ['--import', 'tsx', 'relay/cli.ts']): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-bench-'));
  const { token, tokenHash } = createRelayToken();
  const configFile = join(dir, 'relay.json');
  writeFileSync(configFile, JSON.stringify({ keys: [KEY, LATENCY_KEY], tills: [{ label: 'bench', tokenHash }] }));
  // The admin listener serves the metrics the latency round reads its starting point from.
  const child = await startChild([...entry, '--port', '0', '--admin-port', '0', '--data', join(dir, 'data'), '--config', configFile]);
  const pid = child.proc.pid!;
  return {
    store: 'sqlite',
    instances: 1,
    cpuRoots: () => [pid],
    urls: [child.url],
    // One log: the till listens from wherever the throughput rounds left it (read just before).
    latency: { postUrl: child.url, sseUrl: child.url, token, after: -1, key: LATENCY_KEY, metricsUrl: `${child.adminUrl}/metrics` },
    async stop() {
      await stopChildren([child]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type BenchDatabase = {
  url(name: string): Promise<string>;
  /** The throwaway cluster's postmaster, whose backends' CPU a delivery costs; null for a database given by URL (not this bench's to weigh). */
  postmaster(): number | null;
  stop(): Promise<void>;
};

/** A PostgreSQL to run on: the given URL, or a throwaway cluster (stopped with the benchmark). */
export async function benchDatabase(givenUrl: string | undefined): Promise<BenchDatabase> {
  if (givenUrl) return { url: async () => givenUrl, postmaster: () => null, stop: async () => undefined };
  const cluster = await PgCluster.create();
  return {
    url: (name) => cluster.createDatabase(name),
    postmaster: () => pidIn(join(cluster.dataDir, 'postmaster.pid')),
    stop: () => cluster.destroy(),
  };
}

/**
 * The throughput rounds measure what an instance commits for one merchant, as fast as it can: that merchant's
 * share of a relay of many (deliveriesPerSecondPerMerchant) would be the figure otherwise.
 */
export const ONE_MERCHANT_UNSHARED = { RELAY_DELIVERIES_PER_SECOND_PER_MERCHANT: '1000000', RELAY_DELIVERY_BURST_PER_MERCHANT: '1000000' };

export async function startPostgres(databaseUrl: string, instances: number, postmaster: () => number | null = () => null): Promise<Target> {
  const masterKey = randomBytes(32);
  const pool = await openPgPool(databaseUrl, 1);
  let latencyToken: string;
  try {
    await addMerchant(pool, 'MCH_bench');
    await addKey(pool, masterKey, 'MCH_bench', KEY.publicId, KEY.secret);
    // The latency till reads a merchant of its own: its log starts empty.
    await addMerchant(pool, 'MCH_bench_latency');
    await addKey(pool, masterKey, 'MCH_bench_latency', LATENCY_KEY.publicId, LATENCY_KEY.secret);
    latencyToken = await createToken(pool, 'MCH_bench_latency', 'bench');
  } finally {
    await pool.end();
  }
  const env = { RELAY_MASTER_KEY: masterKey.toString('base64'), ...ONE_MERCHANT_UNSHARED };
  const children: Child[] = [];
  for (let i = 0; i < instances; i++) {
    children.push(await startChild(['--import', 'tsx', 'relay/cli.ts', '--port', '0', '--database-url', databaseUrl], env));
  }
  const urls = children.map((c) => c.url);
  return {
    store: 'postgres',
    instances,
    urls,
    latency: { postUrl: urls[0]!, sseUrl: urls[urls.length - 1]!, token: latencyToken, after: 0, key: LATENCY_KEY },
    cpuRoots: () => [...children.map((c) => c.proc.pid!), postmaster()],
    stop: () => stopChildren(children),
  };
}
