/**
 * A real-time clock for the simulator that a test can hold: while held, timers that come due wait and
 * run in order on release. It keeps a customer's answer back (a slow approval stays pending) for exactly
 * as long as a test needs, so no step races the simulated customer on a slow machine.
 */
import type { SandboxClock } from '../../sandbox/clock.js';

type Entry = { fn: () => void; handle: ReturnType<typeof setTimeout> | null; due: boolean };

export class HeldClock implements SandboxClock {
  private held = false;
  private readonly waiting: Entry[] = [];

  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const entry: Entry = { fn, handle: null, due: false };
    entry.handle = setTimeout(() => {
      entry.handle = null;
      if (this.held) {
        entry.due = true;
        this.waiting.push(entry);
      } else {
        fn();
      }
    }, ms);
    return entry;
  }

  clearTimeout(handle: unknown): void {
    const entry = handle as Entry;
    if (entry.handle) clearTimeout(entry.handle);
    entry.handle = null;
    const at = this.waiting.indexOf(entry);
    if (at >= 0) this.waiting.splice(at, 1);
  }

  /** From now on, timers that come due wait for release(). */
  hold(): void {
    this.held = true;
  }

  /** How many timers came due while held. */
  get heldBack(): number {
    return this.waiting.length;
  }

  /** Runs every timer that came due while held, in the order they came due, and stops holding. */
  release(): void {
    this.held = false;
    for (const entry of this.waiting.splice(0)) entry.fn();
  }
}
