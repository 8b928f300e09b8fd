/** The PostgreSQL store's gate on reads: at most its share of the pool's connections, let in merchant by merchant in turn. */
import { describe, expect, it } from 'vitest';
import { ReadGate } from '../../../../../relay/store/pg/index.js';

/** A read that holds its connection until `finish()` is called. */
function held() {
  let finish = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { read: () => done, finish: () => finish() };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('ReadGate', () => {
  it("holds reads to its share and lets the waiting ones in merchant by merchant, so one merchant's queue never goes first", async () => {
    const states: Array<[number, number]> = [];
    const gate = new ReadGate(
      () => 2,
      (running, waiting) => states.push([running, waiting]),
    );
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

  it('lets a read in at once while fewer than its share run, and a failed read frees its connection', async () => {
    const gate = new ReadGate(() => 1);
    await expect(gate.run('MCH_a', () => Promise.reject(new Error('gone')))).rejects.toThrow('gone');
    await expect(gate.run('MCH_b', () => Promise.resolve(7))).resolves.toBe(7);
  });
});
