/** The harness's own checks bite: the records comparison names each way the till and the service can disagree, and the moved clock runs what it passes. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { disagreements, type Records } from './support/shop.js';
import { MovableClock } from './support/movable-clock.js';
import type { SandboxTransaction } from '../browser-bridge/sandbox-api.js';

const tx = (ref: string, status: string, amount: string): SandboxTransaction => ({
  reference: `tx-${ref}`,
  clientReference: ref,
  status,
  amount,
  fee: '0.00',
  msisdn: '233241230011',
  network: 'MTN',
  environment: 'test',
});
const row = (ref: string, state: string, amount: number) => ({ id: `p-${ref}`, merchant_ref: ref, state, amount, msisdn: '233241230011' });

describe("the till's records against the service's", () => {
  it('agree: one for one, same state and amount, only amounts typed', () => {
    const records: Records = {
      till: [row('a', 'success', 1500), row('b', 'failed', 900)],
      service: [tx('a', 'SUCCESS', '15.00'), tx('b', 'FAILED', '9.00')],
    };
    expect(disagreements(records, ['15.00', '9.00'])).toEqual([]);
  });

  it('name a second prompt, a state or amount apart, an amount nobody typed, a payment only one side has', () => {
    const records: Records = {
      till: [row('a', 'success', 1500), row('b', 'awaiting_customer', 900), row('c', 'success', 2000)],
      service: [tx('a', 'SUCCESS', '15.00'), tx('a', 'SUCCESS', '15.00'), tx('b', 'SUCCESS', '9.00'), tx('x', 'SUCCESS', '122.00')],
    };
    expect(disagreements(records, ['15.00', '9.00', '20.00'])).toEqual([
      'b: the till says awaiting_customer, the service SUCCESS',
      'the service has 122.00, which the cashier never typed',
      'the service has tx-x (SUCCESS, 122.00) that the till does not',
      'a: prompted 2 times at the service',
      'c: PAID at the till, unknown to the service',
    ]);
  });
});

describe('a clock the test moves', () => {
  it('runs the timers it passes, in order, and keeps the others; held, it runs nothing until released', () => {
    const clock = new MovableClock();
    const ran: string[] = [];
    clock.setTimeout(() => ran.push('late'), 60_000);
    clock.setTimeout(() => ran.push('soon'), 30_000);
    const cancelled = clock.setTimeout(() => ran.push('cancelled'), 10_000);
    clock.clearTimeout(cancelled);
    const before = clock.now();
    clock.advance(45_000);
    expect(ran).toEqual(['soon']);
    expect(clock.now() - before).toBeGreaterThanOrEqual(45_000);
    clock.hold();
    clock.advance(20_000);
    expect(ran).toEqual(['soon']);
    clock.release();
    expect(ran).toEqual(['soon', 'late']);
  });

  describe("a timer whose wake-up comes before its due time by the wall clock (Node's timers count whole milliseconds of a monotonic clock)", () => {
    afterEach(() => vi.restoreAllMocks());
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    it('still runs once its time has come', async () => {
      let wall = 1_000_000;
      vi.spyOn(Date, 'now').mockImplementation(() => wall);
      const clock = new MovableClock();
      const ran: string[] = [];
      clock.setTimeout(() => ran.push('payment answered'), 30);
      wall += 20; // the wake-up comes before its due time by the wall clock
      await sleep(80);
      expect(ran).toEqual([]);
      wall += 80;
      await sleep(80);
      expect(ran).toEqual(['payment answered']);
    });

    it('still runs after a hold during which it woke early', async () => {
      let wall = 1_000_000;
      vi.spyOn(Date, 'now').mockImplementation(() => wall);
      const clock = new MovableClock();
      const ran: string[] = [];
      clock.setTimeout(() => ran.push('payment answered'), 30);
      clock.hold();
      wall += 20;
      await sleep(80);
      clock.release();
      expect(ran).toEqual([]);
      wall += 80;
      await sleep(80);
      expect(ran).toEqual(['payment answered']);
    });
  });
});
