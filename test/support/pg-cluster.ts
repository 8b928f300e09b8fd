/**
 * A throwaway PostgreSQL 15 cluster for tests: `initdb` into a temporary folder, started with
 * `pg_ctl` on a free loopback port, stopped and removed afterwards. PostgreSQL refuses to run as
 * root, so when the tests run as root the binaries run as the `postgres` user (`runuser`) on
 * folders handed to that user. One cluster per test file; each test takes its own database.
 *
 * `stopFast()` + `start()` (same folder, same port) give the outage tests a real server that goes
 * away and comes back.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { freePort } from './free-port.js';

const run = promisify(execFile);

export const PG_BIN = process.env.RELAY_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';
/** False where PostgreSQL 15 is not installed: only then may a PostgreSQL test skip (by name). */
export const HAS_POSTGRES = existsSync(join(PG_BIN, 'initdb'));

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL binary, as the `postgres` user when we are root. */
function pgTool(tool: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const path = join(PG_BIN, tool);
  return asRoot ? run('runuser', ['-u', 'postgres', '--', path, ...args]) : run(path, args);
}

function giveToPostgres(dir: string): void {
  if (!asRoot) return;
  const { uid, gid } = postgresIds();
  chownSync(dir, uid, gid);
}

function postgresIds(): { uid: number; gid: number } {
  const line = (
    readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:')) ?? ''
  ).split(':');
  if (line.length < 4) throw new Error('PostgreSQL tests run as root need a "postgres" user (apt-get install postgresql creates it)');
  return { uid: Number(line[2]), gid: Number(line[3]) };
}

export class PgCluster {
  private databases = 0;

  private constructor(
    readonly root: string,
    readonly dataDir: string,
    readonly socketDir: string,
    readonly port: number,
  ) {}

  /** initdb + start. Settings favour a quick test run but keep durability as in production (fsync, synchronous_commit). */
  static async create(): Promise<PgCluster> {
    const root = mkdtempSync(join(tmpdir(), 'relay-pg-'));
    const dataDir = join(root, 'data');
    const socketDir = join(root, 'socket');
    giveToPostgres(root);
    await pgTool('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-sync']);
    mkdirSync(socketDir);
    giveToPostgres(socketDir);
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      const cluster = new PgCluster(root, dataDir, socketDir, await freePort());
      try {
        await cluster.start();
        return cluster;
      } catch (err) {
        lastError = err; // the port was taken between freePort() and the server's bind: try another
      }
    }
    rmSync(root, { recursive: true, force: true });
    throw lastError;
  }

  /** Starts (or restarts) the server on its folder and port; waits until it accepts connections. */
  async start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      `-c listen_addresses=127.0.0.1`,
      `-c unix_socket_directories=${this.socketDir}`,
      '-c max_connections=200',
      '-c shared_buffers=32MB',
      '-c fsync=on',
      '-c synchronous_commit=on',
    ].join(' ');
    await pgTool('pg_ctl', ['-D', this.dataDir, '-o', options, '-l', join(this.dataDir, 'server.log'), '-w', '-t', '60', 'start']);
  }

  /** `pg_ctl stop -m fast`: sessions are ended, the server checkpoints and stops. */
  async stopFast(): Promise<void> {
    await pgTool('pg_ctl', ['-D', this.dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']);
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** A fresh, empty database; returns its URL. */
  async createDatabase(prefix = 'relay'): Promise<string> {
    const name = `${prefix}_${process.pid}_${++this.databases}`;
    const client = new pg.Client({ connectionString: this.url() });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    return this.url(name);
  }

  /** Stops the server (immediately: its contents are thrown away) and removes the folder. */
  async destroy(): Promise<void> {
    try {
      await pgTool('pg_ctl', ['-D', this.dataDir, '-m', 'immediate', '-w', '-t', '60', 'stop']);
    } catch {
      /* already stopped */
    }
    rmSync(this.root, { recursive: true, force: true });
  }
}

/**
 * `describe`, or where PostgreSQL 15 is not installed, a skipped `describe` whose name says why.
 * CI installs it (.ci/run), so there these suites always run.
 */
export function describePg(name: string, fn: () => void): void {
  if (HAS_POSTGRES) describe(name, fn);
  else describe.skip(`${name} (skipped: PostgreSQL 15 is not installed, no ${join(PG_BIN, 'initdb')})`, fn);
}

/** One cluster for the calling test file: created before its tests, destroyed after. */
export function usePgCluster(): () => PgCluster {
  let cluster: PgCluster | undefined;
  beforeAll(async () => {
    cluster = await PgCluster.create();
  }, 120_000);
  afterAll(async () => {
    await cluster?.destroy();
  }, 120_000);
  return () => {
    if (!cluster) throw new Error('the PostgreSQL cluster is not running');
    return cluster;
  };
}
