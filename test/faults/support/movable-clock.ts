/**
 * A clock for the simulator that a test can move forward (a customer's 60 s prompt time-out, a night,
 * in one call) and hold (a customer's answer waits for as long as the test needs). Real time runs
 * underneath: timers come due as usual unless held, and `advance` brings every timer it passes due at
 * once, in the order they would have come.
 */
import type { SandboxClock } from '../../../sandbox/clock.js';

type Entry = { fn: () => void; due: number; handle: ReturnType<typeof setTimeout> | null };

export class MovableClock implements SandboxClock {
  private offset = 0;
  private held = false;
  private readonly entries = new Set<Entry>();

  now(): number {
    return Date.now() + this.offset;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const entry: Entry = { fn, due: this.now() + Math.max(0, ms), handle: null };
    this.entries.add(entry);
    this.arm(entry);
    return entry;
  }

  clearTimeout(handle: unknown): void {
    const entry = handle as Entry;
    if (entry.handle) clearTimeout(entry.handle);
    entry.handle = null;
    this.entries.delete(entry);
  }

  /** From now on, timers that come due wait for release(). */
  hold(): void {
    this.held = true;
  }

  /** Runs every timer already due, in order, and stops holding. */
  release(): void {
    this.held = false;
    this.runDue();
    this.armWaiting();
  }

  /** Moves the clock `ms` forward: timers it passes run now (unless held), the others keep their due time. */
  advance(ms: number): void {
    this.offset += ms;
    for (const entry of this.entries) {
      if (entry.handle) clearTimeout(entry.handle);
      entry.handle = null;
    }
    this.runDue();
    this.armWaiting();
  }

  /** How far the clock is ahead of real time. */
  get ahead(): number {
    return this.offset;
  }

  /** Every timer still to come that has no wake-up of its own gets one. */
  private armWaiting(): void {
    for (const entry of this.entries) if (!entry.handle) this.arm(entry);
  }

  private arm(entry: Entry): void {
    entry.handle = setTimeout(
      () => {
        entry.handle = null;
        if (this.held) return;
        this.runDue();
        // Node's timers count whole milliseconds of a monotonic clock, not Date.now(): one can fire up to a
        // millisecond before `due` by the wall clock. Then it waits the rest, or it would never run.
        if (this.entries.has(entry) && !entry.handle) this.arm(entry);
      },
      Math.max(0, entry.due - this.now()),
    );
  }

  private runDue(): void {
    if (this.held) return;
    const due = [...this.entries].filter((e) => e.due <= this.now()).sort((a, b) => a.due - b.due);
    for (const entry of due) {
      if (!this.entries.has(entry)) continue; // cleared by an earlier timer
      this.entries.delete(entry);
      if (entry.handle) clearTimeout(entry.handle);
      entry.fn();
    }
  }
}
