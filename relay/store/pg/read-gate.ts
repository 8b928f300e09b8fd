/**
 * The database reads of an instance (tills' pages, streams reading back, lookups by reference) may hold at
 * most `max()` of its pool's connections at once, so a merchant's commit always finds one free instead of
 * queueing behind reads. Reads past that wait in memory and are let in merchant by merchant in turn, so one
 * merchant's many reads never queue ahead of another merchant's one.
 */
export class ReadGate {
  private running = 0;
  /** Waiting reads per merchant; the map's order is the order of turns. */
  private readonly waiting = new Map<string, Array<() => void>>();
  private queued = 0;

  constructor(
    private readonly max: () => number,
    /** Told the reads holding a connection and the reads waiting, whenever either changes. */
    private readonly changed: (running: number, waiting: number) => void = () => undefined,
  ) {}

  async run<T>(merchantId: string, read: () => Promise<T>): Promise<T> {
    if (this.running < Math.max(1, this.max())) {
      this.running++;
      this.changed(this.running, this.queued);
    } else await this.wait(merchantId);
    try {
      return await read();
    } finally {
      this.release();
    }
  }

  private wait(merchantId: string): Promise<void> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(merchantId);
      if (queue) queue.push(resolve);
      else this.waiting.set(merchantId, [resolve]);
      this.queued++;
      this.changed(this.running, this.queued);
    });
  }

  /** A read is done: its connection goes to the next merchant in turn (whose further reads go to the back). */
  private release(): void {
    this.running--;
    for (
      let turn = this.waiting.entries().next();
      !turn.done && this.running < Math.max(1, this.max());
      turn = this.waiting.entries().next()
    ) {
      const [merchantId, queue] = turn.value;
      const next = queue.shift() as () => void;
      this.waiting.delete(merchantId);
      if (queue.length > 0) this.waiting.set(merchantId, queue);
      this.queued--;
      this.running++;
      next();
    }
    this.changed(this.running, this.queued);
  }
}
