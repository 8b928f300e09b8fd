/**
 * Group commit, main-thread side. The deliveries verified in one event-loop turn are posted to
 * the writer thread together; the writer commits every batch waiting for it in ONE transaction
 * with one fsync (relay/commit-worker.ts). The main thread never waits on the disk, and each
 * delivery is answered only once the transaction holding it has committed; a failed commit
 * rejects it (answered 503).
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ApplyOutcome, Delivery } from './event-log.js';
import type { WorkerInit, WorkerItemResult, WorkerRequest, WorkerResponse } from './commit-worker.js';
import type { LogFn } from './http-util.js';

type Pending = {
  delivery: Delivery;
  resolve: (outcome: ApplyOutcome) => void;
  reject: (err: unknown) => void;
};

/** Called once per posted batch after its commit; commitSize is the commit's size on the first batch of a commit, else 0. */
export type CommitListener = (outcomes: Array<{ delivery: Delivery; outcome: ApplyOutcome }>, commitSize: number) => void;

export class CommitError extends Error {
  override name = 'CommitError';
}

/** Starts relay/commit-worker in a thread; from TypeScript sources it is loaded through tsx's API. */
function spawnWorker(init: WorkerInit): Worker {
  const here = import.meta.url;
  const options = { workerData: init, transferList: [init.port] };
  if (here.endsWith('.js')) return new Worker(new URL('./commit-worker.js', here), options);
  const tsxDir = dirname(createRequire(here).resolve('tsx/package.json'));
  const api = pathToFileURL(join(tsxDir, 'dist/esm/api/index.mjs')).href;
  const target = new URL('./commit-worker.ts', here).href;
  const code = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(target)}, ${JSON.stringify(target)}))`;
  return new Worker(code, { eval: true, ...options });
}

export class GroupCommitter {
  /** Submitted this event-loop turn, not yet posted. */
  private pending: Pending[] = [];
  /** Posted to the writer, awaiting its commit. */
  private readonly inFlight = new Map<number, Pending[]>();
  private nextId = 1;
  private worker!: Worker;
  private port!: MessagePort;
  private ready!: Promise<void>;
  private isReady = false;
  private closed = false;
  private scheduled = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly options: {
      dataDir: string;
      busyTimeoutMs: number;
      maxBatch: number;
      windowMs: number;
      onCommit: CommitListener;
      log: LogFn;
    },
  ) {
    this.start();
  }

  private start(): void {
    const channel = new MessageChannel();
    const port = channel.port1;
    const worker = spawnWorker({ dataDir: this.options.dataDir, busyTimeoutMs: this.options.busyTimeoutMs, port: channel.port2 });
    this.worker = worker;
    this.port = port;
    this.isReady = false;
    this.ready = new Promise<void>((resolve, reject) => {
      port.on('message', (msg: WorkerResponse) => {
        if (msg.type === 'ready') {
          this.isReady = true;
          resolve();
          this.post();
        } else if (msg.type === 'result') {
          this.settle(msg);
        }
      });
      worker.once('error', (err) => {
        reject(err);
        this.options.log({ level: 'error', msg: 'commit_worker_error', error: err.message });
      });
      worker.once('exit', (code) => {
        if (worker !== this.worker) return;
        port.close();
        this.isReady = false;
        for (const [id, batch] of this.inFlight) {
          this.inFlight.delete(id);
          for (const p of batch) p.reject(new CommitError(`writer thread exited (${code}) before committing`));
        }
        this.notifyIdle();
        if (!this.closed) {
          this.options.log({ level: 'error', msg: 'commit_worker_restart', exitCode: code });
          this.start();
          this.ready.catch(() => undefined);
        }
      });
    });
  }

  /** Resolves when the writer thread has opened the database. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  /** Resolves once the delivery's outcome is committed to disk; rejects when the commit failed. */
  submit(delivery: Delivery): Promise<ApplyOutcome> {
    if (this.closed) return Promise.reject(new CommitError('relay is shutting down'));
    return new Promise<ApplyOutcome>((resolve, reject) => {
      this.pending.push({ delivery, resolve, reject });
      if (this.pending.length >= this.options.maxBatch) this.post();
      else this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      this.post();
    };
    if (this.options.windowMs > 0) setTimeout(run, this.options.windowMs);
    else setImmediate(run);
  }

  /** Posts what was submitted this turn; the writer groups it with whatever else is waiting. */
  private post(): void {
    if (!this.isReady || this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const id = this.nextId++;
    this.inFlight.set(id, batch);
    const deliveries = JSON.stringify(batch.map((p) => p.delivery));
    this.port.postMessage({ type: 'batch', id, deliveries } satisfies WorkerRequest);
  }

  private settle(msg: Extract<WorkerResponse, { type: 'result' }>): void {
    const batch = this.inFlight.get(msg.id);
    if (!batch) return;
    this.inFlight.delete(msg.id);
    const results = JSON.parse(msg.results) as WorkerItemResult[];
    const committed: Array<{ delivery: Delivery; outcome: ApplyOutcome }> = [];
    results.forEach((r, i) => {
      if ('outcome' in r) committed.push({ delivery: (batch[i] as Pending).delivery, outcome: r.outcome });
    });
    try {
      this.options.onCommit(committed, msg.groupSize);
    } finally {
      results.forEach((r, i) => {
        const p = batch[i] as Pending;
        if ('outcome' in r) p.resolve(r.outcome);
        else p.reject(new CommitError(r.error));
      });
      this.notifyIdle();
    }
  }

  private notifyIdle(): void {
    if (this.pending.length === 0 && this.inFlight.size === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Stops taking deliveries, lets submitted ones commit, then closes the writer's database. */
  async close(): Promise<void> {
    this.closed = true;
    this.post();
    if (this.pending.length > 0 || this.inFlight.size > 0) {
      await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
    const worker = this.worker;
    if (this.isReady) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5_000);
        this.port.on('message', (msg: WorkerResponse) => {
          if (msg.type === 'closed') {
            clearTimeout(timer);
            resolve();
          }
        });
        worker.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        this.port.postMessage({ type: 'close' } satisfies WorkerRequest);
      });
    }
    await worker.terminate();
    this.port.close();
  }
}
