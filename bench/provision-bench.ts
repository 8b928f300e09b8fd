/**
 * npm run bench:provision [-- --merchants 500 --concurrency 8 --database-url postgres://…]
 *
 * Provisions merchants as a hosting operator's tooling would: through the relay's admin API
 * (`--admin-port`), each merchant made, given a live service key and a till token, against a real
 * PostgreSQL (a throwaway 15 cluster unless --database-url names one). The relay runs as its own
 * process, started by its CLI. The last line is
 * {"merchants":n,"seconds":s,"perMerchantMs":…,"p99CallMs":…,"concurrency":c}. Target: 500 in under 60 s.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { createAdminToken, openPgPool } from '../relay/store/pg/index.js';
import { benchDatabase } from './relay-bench-targets.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function options() {
  const { values } = parseArgs({
    options: { merchants: { type: 'string' }, concurrency: { type: 'string' }, 'database-url': { type: 'string' } },
  });
  const merchants = Number(values.merchants ?? 500);
  const concurrency = Number(values.concurrency ?? 8);
  if (!Number.isInteger(merchants) || merchants < 1 || merchants > 100_000) throw new Error('--merchants: 1-100000');
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new Error('--concurrency: 1-64');
  return { merchants, concurrency, databaseUrl: values['database-url'] };
}

/** Starts the relay (CLI) with an admin listener; resolves with its admin URL once it is ready. */
function startRelay(databaseUrl: string, masterKey: string) {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'relay/cli.ts', '--port', '0', '--admin-port', '0', '--database-url', databaseUrl],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, RELAY_MASTER_KEY: masterKey },
    },
  );
  const ready = new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve((JSON.parse(out.slice(0, nl)) as { adminUrl: string }).adminUrl);
    });
    proc.on('exit', (code) => reject(new Error(`the relay exited with ${code}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  return { ready, stop };
}

const timings: number[] = [];

async function call(adminUrl: string, token: string, path: string, body: unknown): Promise<unknown> {
  const started = performance.now();
  const res = await request(`${adminUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.body.json()) as unknown;
  timings.push(performance.now() - started);
  if (res.statusCode !== 201) throw new Error(`POST ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
  return json;
}

async function provision(adminUrl: string, token: string, i: number): Promise<void> {
  const id = `MCH_bench${String(i).padStart(5, '0')}`;
  await call(adminUrl, token, '/admin/v1/merchants', { id, name: `Bench shop ${i}` });
  const suffix = String(i).padStart(8, '0');
  await call(adminUrl, token, `/admin/v1/merchants/${id}/keys`, {
    publicId: `pk_live_Prov${suffix}`,
    secret: `sk_live_${'ProvisionSecret'}${suffix}`,
  });
  const made = (await call(adminUrl, token, `/admin/v1/merchants/${id}/tokens`, { label: 'front-counter' })) as { token?: string };
  if (!made.token?.startsWith('rt_')) throw new Error(`${id}: no till token in the answer`);
}

async function main(): Promise<void> {
  const { merchants, concurrency, databaseUrl } = options();
  const database = await benchDatabase(databaseUrl);
  const url = await database.url('provision');
  const pool = await openPgPool(url, 1);
  const adminToken = await createAdminToken(pool, 'bench').finally(() => pool.end());
  const relay = startRelay(url, randomBytes(32).toString('base64'));
  try {
    const adminUrl = await relay.ready;
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < merchants) await provision(adminUrl, adminToken, next++);
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const seconds = (performance.now() - started) / 1000;
    timings.sort((a, b) => a - b);
    const p99 = timings[Math.min(timings.length - 1, Math.floor(timings.length * 0.99))] ?? 0;
    console.log(
      JSON.stringify({
        merchants,
        seconds: Number(seconds.toFixed(2)),
        perMerchantMs: Number(((seconds * 1000) / merchants).toFixed(1)),
        p99CallMs: Number(p99.toFixed(1)),
        concurrency,
      }),
    );
  } finally {
    await relay.stop();
    await database.stop();
  }
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
