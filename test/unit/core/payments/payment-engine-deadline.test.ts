/**
 * A charge has a deadline: a payment the service has not acknowledged is sent only until `send_until`
 * (Enter + the engine's sendDeadlineMs) or until the cashier says stop, then ends in a named state:
 * not_sent (no attempt could have reached the service) or unconfirmed (one may have; its result still lands).
 * The clock is injected: the tests move it, the engine's short retry timers stay real.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServiceResult } from '../../../../electron/core/payments/service-client.js';
import { accepted, engineFixture, finalTx, sale, type Fixture } from './engine-fixture.js';

const T0 = Date.parse('2026-11-26T19:00:00Z');
const DEADLINE_MS = 60_000;
const noAnswer = (reason: 'refused' | 'connect-timeout' | 'response-timeout' | 'broken'): ServiceResult => ({ kind: 'no-answer', reason });

let f: Fixture;
let clock = T0;
function fixture(): Fixture {
  clock = T0;
  f = engineFixture({ now: () => clock, sendDeadlineMs: DEADLINE_MS, retryDelaysMs: [20] });
  return f;
}
afterEach(async () => {
  await f.cleanup();
});

/** Waits on a condition, with room for a loaded machine. */
const until = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 5 });
const stateOf = (id: string) => f.repo.get(id)?.state;
async function charge(requestId = 'req-deadline-1') {
  const answer = await f.engine.charge('test', sale(requestId));
  if (!answer.ok) throw new Error(answer.message);
  return answer.payment;
}

describe('a charge is sent only until its deadline', () => {
  it('stores the deadline at Enter and shows it in the view', async () => {
    fixture();
    const p = await charge();
    expect(f.repo.get(p.id)?.send_until).toBe(T0 + DEADLINE_MS);
    expect(p.sendUntil).toBe(new Date(T0 + DEADLINE_MS).toISOString());
  });

  it('after the deadline sends nothing more and ends not_sent when no attempt could have reached the service', async () => {
    fixture();
    f.script.push(noAnswer('refused'), noAnswer('connect-timeout'));
    const p = await charge();
    await until(() => expect(f.bodies.length).toBe(2));
    await until(() => expect(stateOf(p.id)).toBe('uncertain'));
    clock = T0 + DEADLINE_MS;
    await until(() => expect(stateOf(p.id)).toBe('not_sent'));
    const row = f.repo.get(p.id);
    expect(row?.may_have_reached).toBe(0);
    expect(row?.error_message).toMatch(/no prompt went out/i);
    expect(f.statesOf(p.id).at(-1)).toBe('not_sent');
    f.engine.resume();
    await f.engine.close();
    expect(f.bodies.length).toBe(2);
  });

  it('ends unconfirmed when an attempt may have reached the service, and its later result still lands as PAID', async () => {
    fixture();
    f.script.push(noAnswer('refused'), noAnswer('response-timeout'));
    const p = await charge();
    await until(() => expect(f.bodies.length).toBe(2));
    clock = T0 + DEADLINE_MS + 1;
    await until(() => expect(stateOf(p.id)).toBe('unconfirmed'));
    expect(f.repo.get(p.id)?.error_message).toMatch(/may have reached/i);
    f.engine.applyTransaction('test', finalTx('TX_LATE_1', p.merchantRef), 7);
    expect(stateOf(p.id)).toBe('success');
    expect(f.statesOf(p.id).at(-1)).toBe('success');
    expect(f.bodies.length).toBe(2);
  });

  it('a 5xx is an answer from the service: the payment may have reached it', async () => {
    fixture();
    f.script.push({ kind: 'error', status: 503, code: 'INTERNAL', message: null, retryAfterMs: null });
    const p = await charge();
    clock = T0 + DEADLINE_MS;
    await until(() => expect(stateOf(p.id)).toBe('unconfirmed'));
    expect(f.bodies.length).toBe(1);
  });
});

describe('after a restart', () => {
  it('past the deadline, resume sends nothing and lands the named states (created, uncertain, submitting)', async () => {
    fixture();
    f.script.push(noAnswer('broken'), noAnswer('refused'));
    const reached = await charge('req-reached');
    await until(() => expect(stateOf(reached.id)).toBe('uncertain'));
    // Stop its retries so the second charge may go (one payment being sent at a time per till).
    await f.restart();
    const refused = await charge('req-refused');
    await f.restart();
    const created = await charge('req-created');
    // A crash right after Enter, and another in the middle of an attempt.
    f.db.prepare("UPDATE payments SET state = 'created', attempts = 0, may_have_reached = 0 WHERE id = ?").run(created.id);
    f.db.prepare("UPDATE payments SET state = 'submitting' WHERE id = ?").run(refused.id);
    const sent = f.bodies.length;

    clock = T0 + 14 * 3600_000;
    const engine = await f.restart();
    engine.resume();
    await engine.close();
    expect(f.bodies.length).toBe(sent);
    expect(stateOf(reached.id)).toBe('unconfirmed');
    // Killed mid-attempt: the attempt's fate is unknown, so it may have reached the service.
    expect(stateOf(refused.id)).toBe('unconfirmed');
    expect(stateOf(created.id)).toBe('not_sent');
    expect(f.logged('payment.send_ended').map((l) => l.state)).toEqual(['unconfirmed', 'unconfirmed', 'not_sent']);
  });

  it('within the deadline, resume still sends again with the same merchantRef and body', async () => {
    fixture();
    f.script.push(noAnswer('broken'));
    const p = await charge();
    await until(() => expect(stateOf(p.id)).toBe('uncertain'));
    clock = T0 + 30_000;
    f.script.push(accepted('TX_RESUMED'));
    const engine = await f.restart();
    const before = f.bodies.length;
    engine.resume();
    await until(() => expect(stateOf(p.id)).toBe('awaiting_customer'));
    expect(f.bodies.length).toBe(before + 1);
    expect(f.bodies.at(-1)).toBe(f.bodies[0]);
    expect(JSON.parse(f.bodies.at(-1) as string).merchantRef).toBe(p.merchantRef);
  });
});

describe('stopping waiting before the service acknowledged', () => {
  it('"stop" ends it at once in not_sent and no request goes out afterwards', async () => {
    fixture();
    f.script.push(noAnswer('refused'));
    const p = await charge();
    expect(stateOf(p.id)).toBe('uncertain');
    const view = f.engine.stopWaiting(p.id, 'Ama', 'stop');
    expect(view?.state).toBe('not_sent');
    expect(view?.stoppedWaiting).toBe(true);
    expect(f.logged('payment.send_ended').at(-1)?.why).toBe('stopped');
    f.engine.resume();
    await f.engine.close();
    expect(f.bodies.length).toBe(1);
  });

  it('"keep trying" keeps sending until the deadline, then ends in a named state', async () => {
    fixture();
    f.script.push(noAnswer('refused'), noAnswer('refused'));
    const p = await charge();
    expect(f.engine.stopWaiting(p.id, 'Ama', 'keep')?.state).toBe('uncertain');
    await until(() => expect(f.bodies.length).toBeGreaterThanOrEqual(2));
    clock = T0 + DEADLINE_MS;
    await until(() => expect(stateOf(p.id)).toBe('not_sent'));
  });

  /** Starts a charge whose first attempt hangs until `answer` is called, and stops waiting while it hangs. */
  async function stopDuringAttempt(requestId: string) {
    let answer: (r: ServiceResult) => void = () => {};
    const pending = new Promise<ServiceResult>((resolve) => (answer = resolve));
    const engine = await f.restart({
      client: {
        initialize: async (_c, body) => {
          f.bodies.push(body);
          return pending;
        },
        resolve: async () => ({ kind: 'no-answer', reason: 'refused' }),
        close: async () => {},
      },
    });
    const charging = engine.charge('test', sale(requestId));
    await until(() => expect(f.bodies.length).toBe(1));
    const id = f.repo.byRequestId(requestId)?.id as string;
    expect(engine.stopWaiting(id, null, 'stop')?.state).toBe('unconfirmed');
    return { engine, id, answer, charging };
  }

  it("stopped during an attempt: unconfirmed at once, and the attempt's answer still lands", async () => {
    fixture();
    const { engine, id, answer, charging } = await stopDuringAttempt('req-inflight');
    answer(accepted('TX_INFLIGHT'));
    await charging;
    expect(stateOf(id)).toBe('awaiting_customer');
    expect(f.repo.get(id)?.reference).toBe('TX_INFLIGHT');
    await engine.close();
    expect(f.bodies.length).toBe(1);
  });

  it('stopped during an attempt that then never connected: not_sent', async () => {
    fixture();
    const { engine, id, answer, charging } = await stopDuringAttempt('req-inflight-2');
    answer(noAnswer('connect-timeout'));
    await charging;
    expect(stateOf(id)).toBe('not_sent');
    await engine.close();
    expect(f.bodies.length).toBe(1);
  });

  it('after the service acknowledged, stopping waiting changes nothing but the flag (no question, nothing to stop)', async () => {
    fixture();
    f.script.push(accepted('TX_ACK'));
    const p = await charge();
    expect(f.engine.stopWaiting(p.id, null, 'stop')?.state).toBe('awaiting_customer');
  });
});
