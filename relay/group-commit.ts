/**
 * Group commit. Deliveries are queued; whenever the writer thread is free, everything queued
 * (up to maxBatch) goes to it as ONE transaction with one fsync. While that commit runs, the
 * main thread keeps reading and verifying requests, which form the next batch. Each delivery is
 * answered only once its batch has committed; a failed commit rejects the whole batch (503).
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ApplyOutcome, Delivery } from './event-log.js';
import type { WorkerInit, WorkerRequest, WorkerResponse } from './commit-worker.js';
import type { LogFn } from './http-util.js';

type Pending = {
  delivery: Delivery;
  resolve: (outcome: ApplyOutcome) => void;
  reject: (err: unknown) => void;
};

export type CommitListener = (outcomes: Array<{ delivery: Delivery; outcome: ApplyOutcome }>, batchSize: number) => void;

export class CommitError extends Error {
  override name = 'CommitError';
}

/** Starts relay/commit-worker in a thread; from TypeScript sources it is loaded through tsx's API. */
function spawnWorker(init: WorkerInit): Worker {
  const here = import.meta.url;
  if (here.endsWith('.js')) return new Worker(new URL('./commit-worker.js', here), { workerData: init });
  const tsxDir = dirname(createRequire(here).resolve('tsx/package.json'));
  const api = pathToFileURL(join(tsxDir, 'dist/esm/api/index.mjs')).href;
  const target = new URL('./commit-worker.ts', here).href;
  const code = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(target)}, ${JSON.stringify(target)}))`;
  return new Worker(code, { eval: true, workerData: init });
}

export class GroupCommitter {
  private queue: Pending[] = [];
  private inFlight: { id: number; batch: Pending[] } | null = null;
  private nextId = 1;
  private worker: Worker;
  private ready: Promise<void>;
  private isReady = false;
  private closed = false;
  private timer: NodeJS.Timeout | null = null;
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
    ({ worker: this.worker, ready: this.ready } = this.start());
  }

  private start(): { worker: Worker; ready: Promise<void> } {
    const worker = spawnWorker({ dataDir: this.options.dataDir, busyTimeoutMs: this.options.busyTimeoutMs });
    this.isReady = false;
    const ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (msg: WorkerResponse) => {
        if (msg.type === 'ready') {
          this.isReady = true;
          resolve();
          this.pump();
        } else if (msg.type === 'result' || msg.type === 'failed') {
          this.settle(msg);
        }
      });
      worker.once('error', (err) => {
        reject(err);
        this.options.log({ level: 'error', msg: 'commit_worker_error', error: err.message });
      });
      worker.once('exit', (code) => {
        if (worker !== this.worker) return;
        this.isReady = false;
        if (this.inFlight) {
          const { batch } = this.inFlight;
          this.inFlight = null;
          for (const p of batch) p.reject(new CommitError(`writer thread exited (${code}) during a commit`));
        }
        if (!this.closed) {
          this.options.log({ level: 'error', msg: 'commit_worker_restart', exitCode: code });
          ({ worker: this.worker, ready: this.ready } = this.start());
          this.ready.catch(() => undefined);
        }
      });
    });
    return { worker, ready };
  }

  /** Resolves when the writer thread has opened the database. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  /** Resolves once the delivery's outcome is committed to disk; rejects when the commit failed. */
  submit(delivery: Delivery): Promise<ApplyOutcome> {
    if (this.closed) return Promise.reject(new CommitError('relay is shutting down'));
    return new Promise<ApplyOutcome>((resolve, reject) => {
      this.queue.push({ delivery, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.inFlight || this.timer) return;
    if (this.options.windowMs > 0) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.pump();
      }, this.options.windowMs);
    } else {
      this.pump();
    }
  }

  private pump(): void {
    if (this.inFlight || !this.isReady || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.options.maxBatch);
    const id = this.nextId++;
    this.inFlight = { id, batch };
    const req: WorkerRequest = { type: 'batch', id, deliveries: batch.map((p) => stripLocal(p.delivery)) };
    this.worker.postMessage(req);
  }

  private settle(msg: Extract<WorkerResponse, { type: 'result' | 'failed' }>): void {
    const current = this.inFlight;
    if (!current || current.id !== msg.id) return;
    this.inFlight = null;
    if (msg.type === 'failed') {
      for (const p of current.batch) p.reject(new CommitError(msg.error));
    } else {
      const committed: Array<{ delivery: Delivery; outcome: ApplyOutcome }> = [];
      msg.results.forEach((r, i) => {
        if ('outcome' in r) committed.push({ delivery: (current.batch[i] as Pending).delivery, outcome: r.outcome });
      });
      try {
        this.options.onCommit(committed, current.batch.length);
      } finally {
        msg.results.forEach((r, i) => {
          const p = current.batch[i] as Pending;
          if ('outcome' in r) p.resolve(r.outcome);
          else p.reject(new CommitError(r.error));
        });
      }
    }
    if (this.queue.length > 0) this.schedule();
    else if (!this.inFlight) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Stops taking deliveries, lets queued ones commit, then closes the writer's database. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.queue.length > 0 || this.inFlight) {
      await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
    if (this.timer) clearTimeout(this.timer);
    const worker = this.worker;
    await new Promise<void>((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        resolve();
      };
      worker.on('message', (msg: WorkerResponse) => msg.type === 'closed' && finish());
      worker.once('exit', finish);
      worker.postMessage({ type: 'close' } satisfies WorkerRequest);
    });
    await worker.terminate();
  }
}

/** What crosses to the writer thread (arrivedAt stays here: clocks differ between threads). */
function stripLocal(d: Delivery): Delivery {
  return { ...d, arrivedAt: 0 };
}
