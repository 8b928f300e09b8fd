/**
 * Time in the simulator. Every timer goes through a SandboxClock so unit tests can inject a fake one,
 * and every simulated delay goes through `scaled()` so `--time-scale 0.01` runs the whole webhook
 * retry schedule (0 + 5 + 10 + … + 320 s = 635 s) in about 6 s.
 */
export type SandboxClock = {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

export const realClock: SandboxClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A set of timers on one clock that can all be cancelled at once (on close). */
export class TimerSet {
  private readonly handles = new Map<number, unknown>();
  private nextId = 1;

  constructor(
    private readonly clock: SandboxClock,
    private readonly timeScale: number,
  ) {}

  /** Simulated milliseconds (as the spec states them) to clock milliseconds. */
  scaled(ms: number): number {
    return Math.round(ms * this.timeScale);
  }

  /** Runs fn after `clockMs` milliseconds of clock time (already scaled). Returns a cancel function. */
  at(clockMs: number, fn: () => void): () => void {
    const id = this.nextId++;
    const handle = this.clock.setTimeout(
      () => {
        this.handles.delete(id);
        fn();
      },
      Math.max(0, clockMs),
    );
    this.handles.set(id, handle);
    return () => {
      const h = this.handles.get(id);
      if (h !== undefined) {
        this.clock.clearTimeout(h);
        this.handles.delete(id);
      }
    };
  }

  clearAll(): void {
    for (const handle of this.handles.values()) this.clock.clearTimeout(handle);
    this.handles.clear();
  }
}
