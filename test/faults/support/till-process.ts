/**
 * The test's side of core-child.ts: starts the till core in its own process on a data folder, kills it
 * (SIGKILL), pauses and resumes it (SIGSTOP/SIGCONT), starts it again on the same folder, and carries
 * calls and events between it and the page. Events follow whichever process runs now.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import type { IpcEnvelope } from '../../../shared/ipc/channels.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const CHILD = join(import.meta.dirname, 'core-child.ts');

export type TillProcessOptions = {
  dataDir: string;
  retryDelaysMs?: number[];
  relay?: { initialBackoffMs?: number; maxBackoffMs?: number; heartbeatTimeoutMs?: number };
  http?: { connectTimeoutMs?: number; responseTimeoutMs?: number };
};

type Listener = (event: string, payload: unknown) => void;

export class TillProcess {
  private child: ChildProcess | null = null;
  private port = 0;
  private aheadMs = 0;
  private readonly listeners = new Set<Listener>();
  /** The child's last lines on stderr (its log with MOMO_FAULT_VERBOSE=1), for a failing test's message. */
  readonly stderr: string[] = [];

  constructor(private readonly options: TillProcessOptions) {}

  get pid(): number {
    return this.child?.pid ?? 0;
  }

  /** Starts the core on the data folder; resolves once it serves the bridge. */
  async start(): Promise<void> {
    if (this.child) throw new Error('the till is already running');
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      cwd: ROOT,
      env: { ...process.env, MOMO_FAULT_TILL: JSON.stringify({ ...this.options, aheadMs: this.aheadMs }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      this.stderr.push(...text.split('\n').filter(Boolean));
      this.stderr.splice(0, Math.max(0, this.stderr.length - 200));
    });
    child.on('exit', () => {
      if (this.child === child) this.child = null;
    });
    this.port = await new Promise<number>((ok, fail) => {
      const lines = createInterface({ input: child.stdout! });
      lines.once('line', (line) => ok((JSON.parse(line) as { port: number }).port));
      child.once('exit', (code, signal) =>
        fail(new Error(`the till exited before it was ready (${code ?? signal}): ${this.stderr.slice(-10).join('\n')}`)),
      );
    });
    this.follow(child);
  }

  /** kill -9: no shutdown, nothing flushed but what SQLite already committed. */
  async kill(): Promise<void> {
    await this.signal('SIGKILL');
  }

  /** A clean stop, as the cashier closing the app. */
  async stop(): Promise<void> {
    await this.signal('SIGTERM');
  }

  /** The process stops running (a laptop's sleep, a frozen machine) until resume(). */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** Moves the core's clock this far ahead of real time (now, and on every later start). */
  async setAhead(ms: number): Promise<void> {
    this.aheadMs = ms;
    if (this.child) await this.post('/clock', { aheadMs: ms });
  }

  /** One call as the page makes it; a till that is not running answers as a closed window would: not at all usable. */
  async answer(channel: string, payload: unknown): Promise<IpcEnvelope> {
    try {
      return (await this.post('/answer', { channel, payload })) as IpcEnvelope;
    } catch (error) {
      return { ok: false, error: { code: 'TILL_NOT_RUNNING', message: (error as Error).message } };
    }
  }

  /** The test's own back door: the checked answer, or a thrown error. */
  async invoke<T = unknown>(channel: string, payload: unknown = {}): Promise<T> {
    const envelope = await this.answer(channel, payload);
    if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.code} ${envelope.error.message}`);
    return envelope.value as T;
  }

  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
    if (signal === 'SIGTERM') child.kill('SIGCONT');
    child.kill(signal);
    await exited;
  }

  private post(path: string, json: unknown): Promise<unknown> {
    const body = Buffer.from(JSON.stringify(json));
    return new Promise((ok, fail) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: this.port,
          path,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': body.length },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            try {
              ok(JSON.parse(Buffer.concat(chunks).toString('utf8')));
            } catch (error) {
              fail(error as Error);
            }
          });
          res.on('error', fail);
        },
      );
      req.on('error', fail);
      req.end(body);
    });
  }

  /** Reads the running child's event stream and hands each event on, until that child is gone. */
  private follow(child: ChildProcess): void {
    const req = request({ host: '127.0.0.1', port: this.port, path: '/events' }, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        buffer += text;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          if (!frame.startsWith('data: ')) continue;
          const { event, payload } = JSON.parse(frame.slice(6)) as { event: string; payload: unknown };
          if (this.child === child) for (const listener of this.listeners) listener(event, payload);
        }
      });
      res.on('error', () => undefined);
    });
    req.on('error', () => undefined);
    child.once('exit', () => req.destroy());
    req.end();
  }
}
