/**
 * The database reads of an instance (tills' pages, streams reading back, lookups by reference) run `max()` at
 * a time while they are quick: one by default, because reads side by side take the database's cores from the
 * commits, and a quick read (one query of a few dozen events, about a millisecond) holds the others back for no
 * longer than that. A read still running after `slowAfterMs` (a lock, a big page, a busy database) stops holding
 * the others back, so one merchant's slow read delays another's by that at most; reads hold at most
 * `hardMax()` of the pool's connections in all, so a merchant's commit always finds one free. One merchant's reads
 * hold at most `perMerchant()` connections, quick or slow. Reads past any of these wait in memory and are let
 * in merchant by merchant in turn, so one merchant's many reads never queue ahead of another merchant's one.
 */
type Ticket = { merchantId: string; slow: boolean; timer: ReturnType<typeof setTimeout> | null };

export type ReadGateLimits = {
  /** Reads at once while they are quick. */
  max: () => number;
  /** Reads at once, slow ones included (the connections reads may hold). */
  hardMax?: () => number;
  /** Connections one merchant's reads may hold, quick or slow. */
  perMerchant?: () => number;
  /** When a read running this long stops holding the others back. */
  slowAfterMs?: number;
};

export class ReadGate {
  /** Reads holding a connection; of those, the ones not yet slow. */
  private running = 0;
  private quick = 0;
  /** Reads holding a connection, per merchant. */
  private readonly runningBy = new Map<string, number>();
  /** Waiting reads per merchant; the map's order is the order of turns. */
  private readonly waiting = new Map<string, Array<(ticket: Ticket) => void>>();
  private queued = 0;
  private readonly limits: Required<ReadGateLimits>;

  constructor(
    limits: ReadGateLimits,
    /** Told the reads holding a connection and the reads waiting, whenever either changes. */
    private readonly changed: (running: number, waiting: number) => void = () => undefined,
  ) {
    this.limits = {
      max: limits.max,
      hardMax: limits.hardMax ?? limits.max,
      perMerchant: limits.perMerchant ?? (() => Number.POSITIVE_INFINITY),
      slowAfterMs: limits.slowAfterMs ?? 50,
    };
  }

  async run<T>(merchantId: string, read: () => Promise<T>): Promise<T> {
    let ticket: Ticket;
    if (!this.waiting.has(merchantId) && this.mayStart(merchantId)) {
      ticket = this.start(merchantId);
      this.changed(this.running, this.queued);
    } else ticket = await this.wait(merchantId);
    try {
      return await read();
    } finally {
      this.release(ticket);
    }
  }

  private mayStart(merchantId: string): boolean {
    const { max, hardMax, perMerchant } = this.limits;
    return (
      this.quick < Math.max(1, max()) &&
      this.running < Math.max(1, max(), hardMax()) &&
      (this.runningBy.get(merchantId) ?? 0) < Math.max(1, perMerchant())
    );
  }

  private start(merchantId: string): Ticket {
    this.running++;
    this.quick++;
    this.runningBy.set(merchantId, (this.runningBy.get(merchantId) ?? 0) + 1);
    const ticket: Ticket = { merchantId, slow: false, timer: null };
    ticket.timer = setTimeout(() => {
      ticket.timer = null;
      ticket.slow = true;
      this.quick--;
      this.admit();
    }, this.limits.slowAfterMs);
    ticket.timer.unref?.();
    return ticket;
  }

  private wait(merchantId: string): Promise<Ticket> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(merchantId);
      if (queue) queue.push(resolve);
      else this.waiting.set(merchantId, [resolve]);
      this.queued++;
      this.changed(this.running, this.queued);
    });
  }

  /** A read is done: its connection goes to the next merchant in turn. */
  private release(ticket: Ticket): void {
    if (ticket.timer) clearTimeout(ticket.timer);
    this.running--;
    if (!ticket.slow) this.quick--;
    const left = (this.runningBy.get(ticket.merchantId) ?? 1) - 1;
    if (left > 0) this.runningBy.set(ticket.merchantId, left);
    else this.runningBy.delete(ticket.merchantId);
    this.admit();
  }

  /** Lets waiting reads in, merchant by merchant in turn (a merchant let in goes to the back), while they may start. */
  private admit(): void {
    for (let admitted = true; admitted;) {
      admitted = false;
      for (const [merchantId, queue] of [...this.waiting]) {
        if (!this.mayStart(merchantId)) continue;
        const next = queue.shift() as (ticket: Ticket) => void;
        this.waiting.delete(merchantId);
        if (queue.length > 0) this.waiting.set(merchantId, queue);
        this.queued--;
        next(this.start(merchantId));
        admitted = true;
      }
    }
    this.changed(this.running, this.queued);
  }
}

/** What the relay's settings give the gate of a pool: maxDatabaseReads, maxDatabaseReadsPerMerchant, and who is told. */
export type PoolReads = { max: () => number; perMerchant?: () => number; changed?: (running: number, waiting: number) => void };

/**
 * The gate on a pool of `poolSize` connections: `max()` quick reads at once; slow ones (a lock, a busy database) up
 * to half the pool, never fewer than the quick ones; never the whole pool, so commits keep a connection.
 */
export function poolReadGate(poolSize: number, reads?: PoolReads): ReadGate {
  const connections = (wanted: number) => Math.max(1, Math.min(wanted, poolSize - 1));
  return new ReadGate(
    {
      max: () => connections(reads?.max() ?? poolSize),
      hardMax: () => connections(Math.max(reads?.max() ?? poolSize, Math.floor(poolSize / 2))),
      ...(reads?.perMerchant ? { perMerchant: reads.perMerchant } : {}),
    },
    reads?.changed,
  );
}
