/** The PostgreSQL store's gate on reads: at most its share of the pool's connections, let in merchant by merchant in turn. */
import { describe, expect, it } from 'vitest';
import { ReadGate } from '../../../../../relay/store/pg/index.js';

/** A read that holds its connection until `finish()` is called. */
function held() {
  let finish = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { read: () => done, finish: () => finish() };
}

/** Held reads through `gate`: `start` asks for one, `started` lists them in the order they got in, `reads` finishes them. */
function heldReads(gate: ReadGate) {
  const started: string[] = [];
  const reads = new Map<string, ReturnType<typeof held>>();
  const start = (merchant: string, name: string) => {
    const r = held();
    reads.set(name, r);
    void gate.run(merchant, () => {
      started.push(name);
      return r.read();
    });
  };
  return { started, reads, start };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
/** Reads held past the test's end never count as slow: what is tested is the order of turns. */
const NEVER_SLOW = 600_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ReadGate', () => {
  it("holds reads to its share and lets the waiting ones in merchant by merchant, so one merchant's queue never goes first", async () => {
    const states: Array<[number, number]> = [];
    const gate = new ReadGate({ max: () => 2, slowAfterMs: NEVER_SLOW }, (running, waiting) => states.push([running, waiting]));
    const { started, reads, start } = heldReads(gate);
    for (let i = 1; i <= 5; i++) start('MCH_noisy', `noisy${i}`);
    start('MCH_calm', 'calm1');
    await turn();
    expect(started).toEqual(['noisy1', 'noisy2']);
    expect(states.at(-1)).toEqual([2, 4]);
    reads.get('noisy1')!.finish();
    await turn();
    // The noisy merchant's three waiting reads were asked first; the calm merchant's turn comes after one of them.
    expect(started).toEqual(['noisy1', 'noisy2', 'noisy3']);
    reads.get('noisy2')!.finish();
    await turn();
    expect(started).toEqual(['noisy1', 'noisy2', 'noisy3', 'calm1']);
    for (const name of ['noisy3', 'calm1']) reads.get(name)!.finish();
    await turn();
    expect(started).toEqual(['noisy1', 'noisy2', 'noisy3', 'calm1', 'noisy4', 'noisy5']);
    for (const name of ['noisy4', 'noisy5']) reads.get(name)!.finish();
    await turn();
    expect(states.at(-1)).toEqual([0, 0]);
  });

  it("holds one merchant's reads to its own share, one at a time by default, while the others' go in beside it", async () => {
    const states: Array<[number, number]> = [];
    const gate = new ReadGate({ max: () => 3, perMerchant: () => 1, slowAfterMs: NEVER_SLOW }, (running, waiting) =>
      states.push([running, waiting]),
    );
    const { started, reads, start } = heldReads(gate);
    for (let i = 1; i <= 3; i++) start('MCH_noisy', `noisy${i}`);
    start('MCH_calm', 'calm1');
    start('MCH_other', 'other1');
    await turn();
    // A connection is free, but the noisy merchant's second read waits for its first: a slow read of its holds back only its own.
    expect(started).toEqual(['noisy1', 'calm1', 'other1']);
    expect(states.at(-1)).toEqual([3, 2]);
    reads.get('calm1')!.finish();
    await turn();
    expect(started).toEqual(['noisy1', 'calm1', 'other1']);
    expect(states.at(-1)).toEqual([2, 2]);
    start('MCH_calm', 'calm2');
    await turn();
    expect(started).toEqual(['noisy1', 'calm1', 'other1', 'calm2']);
    reads.get('noisy1')!.finish();
    await turn();
    expect(started).toEqual(['noisy1', 'calm1', 'other1', 'calm2', 'noisy2']);
    for (const name of ['noisy2', 'other1', 'calm2']) reads.get(name)!.finish();
    await turn();
    expect(started).toEqual(['noisy1', 'calm1', 'other1', 'calm2', 'noisy2', 'noisy3']);
    reads.get('noisy3')!.finish();
    await turn();
    expect(states.at(-1)).toEqual([0, 0]);
  });

  it('runs one quick read at a time; a slow one stops holding the others back, up to the connections reads may hold', async () => {
    const states: Array<[number, number]> = [];
    const gate = new ReadGate({ max: () => 1, hardMax: () => 2, perMerchant: () => 1, slowAfterMs: 30 }, (running, waiting) =>
      states.push([running, waiting]),
    );
    const { started, reads, start } = heldReads(gate);
    start('MCH_locked', 'locked1');
    start('MCH_locked', 'locked2');
    start('MCH_calm', 'calm1');
    start('MCH_other', 'other1');
    await turn();
    expect(started).toEqual(['locked1']); // quick reads one at a time
    await sleep(45);
    // locked1 is slow now: the next merchant in turn goes in (not locked2: its merchant holds its one connection).
    expect(started).toEqual(['locked1', 'calm1']);
    await sleep(45);
    // calm1 is slow too, and two connections are all reads may hold: other1 waits for one of them.
    expect(started).toEqual(['locked1', 'calm1']);
    expect(states.at(-1)).toEqual([2, 2]);
    reads.get('calm1')!.finish();
    await turn();
    expect(started).toEqual(['locked1', 'calm1', 'other1']);
    reads.get('other1')!.finish();
    reads.get('locked1')!.finish();
    await turn();
    expect(started).toEqual(['locked1', 'calm1', 'other1', 'locked2']);
    reads.get('locked2')!.finish();
    await turn();
    expect(states.at(-1)).toEqual([0, 0]);
  });

  it('lets a read in at once while fewer than its share run, and a failed read frees its connection', async () => {
    const gate = new ReadGate({ max: () => 1 });
    await expect(gate.run('MCH_a', () => Promise.reject(new Error('gone')))).rejects.toThrow('gone');
    await expect(gate.run('MCH_b', () => Promise.resolve(7))).resolves.toBe(7);
  });
});
