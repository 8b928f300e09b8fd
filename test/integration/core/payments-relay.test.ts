/**
 * Payments through the real sandbox simulator and the real relay on loopback, with a real SQLite
 * file and the real keychain: every sandbox outcome reaches its final state through the relay,
 * a double Charge is one payment, a timed-out initialize is retried with the same merchantRef and
 * body (one charge), a result that arrives while the till is closed lands at the next start, and
 * a relay restart in the middle of a payment loses nothing.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import {
  configureTest,
  msisdnEnding,
  openCore,
  requestId,
  startSale,
  sandboxTransactions,
  startProxy,
  waitForEvent,
  waitForState,
  type LoggedCore,
} from './helpers.js';
import { useTill } from '../../support/till-fixture.js';

const fixture = useTill('till-pay', { connected: true });

const charge = (c: LoggedCore, msisdn: string, amount = '10.00') => startSale(c, msisdn, amount, 'Integration test');

/** Configures TEST on `till` with its requests to the sandbox going through the proxy at `proxyUrl`. */
async function configureThroughProxy(till: LoggedCore, proxyUrl: string): Promise<void> {
  await configureTest(till, fixture.services);
  await till.invoke('settings:save', {
    environment: 'test',
    values: {
      baseUrl: proxyUrl,
      merchantId: fixture.services.sandbox.merchantId,
      publicKeyId: fixture.services.sandbox.keys.test.publicId,
      relayUrl: fixture.services.relay.url,
    },
  });
}

describe('each sandbox outcome reaches its final state through the relay', () => {
  const outcomes: Array<[string, string, 'success' | 'failed']> = [
    ['00', 'authorised', 'success'],
    ['01', 'declined', 'failed'],
    ['02', 'prompt timed out', 'failed'],
    ['03', 'insufficient funds', 'failed'],
    ['04', 'network rejected', 'failed'],
    ['05', 'network reported success three times', 'success'],
    ['06', 'slow approval', 'success'],
  ];
  for (const [suffix, label, expected] of outcomes) {
    it(`${suffix}: ${label} -> ${expected}`, async () => {
      const started = await charge(fixture.core, msisdnEnding(suffix, Number(suffix)), '25.00');
      expect(started.state).toBe('awaiting_customer');
      expect(started.merchantRef).toMatch(/^T[A-Z0-9]+\.[0-9A-Z]{26}$/);
      const final = await waitForState(fixture.core, started.id, ['success', 'failed']);
      expect(final.state).toBe(expected);
      expect(final.reference).toBe(started.reference);
      if (expected === 'success') {
        expect(final.fee).toBe('0.49'); // 1.95% of 25.00, half-up
        expect(final.net).toBe('24.51');
      } else {
        expect(final.fee).toBe('0.00');
      }
      expect(final.completedAt).not.toBeNull();
    });
  }

  it('the network repeating its result (05) still gives one transaction in the till copy', async () => {
    const page = await fixture.core.invoke('history:search', { query: msisdnEnding('05', 5).slice(-5), page: 0, pageSize: 50 });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]?.state).toBe('success');
  });
});

describe('no double charge', () => {
  it('the same requestId twice (double click, second window) is one payment', async () => {
    const id = requestId();
    const input = { requestId: id, amount: '7.00', msisdn: msisdnEnding('11', 11), network: 'MTN' };
    const [a, b] = await Promise.all([fixture.core.invoke('payments:charge', input), fixture.core.invoke('payments:charge', input)]);
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(b.payment.id).toBe(a.payment.id);
    const again = await fixture.core.invoke('payments:charge', input);
    expect(again.ok && again.payment.id).toBe(a.payment.id);
    await waitForState(fixture.core, a.payment.id, ['success']);
    const atService = (await sandboxTransactions(fixture.services)).filter((t) => t.clientReference === a.payment.merchantRef);
    expect(atService).toHaveLength(1);
  });

  it('a second sale cannot start while one is still being sent from this till', async () => {
    const proxy = await startProxy(fixture.services.sandbox.baseUrl);
    const dir = join(fixture.root, 'till-busy');
    const slow = await openCore(dir);
    try {
      await configureThroughProxy(slow, proxy.url);
      proxy.hold(1, 200);
      fixture.services.clock.hold(); // the customer answers only after the checks
      const first = slow.invoke('payments:charge', {
        requestId: requestId(),
        amount: '3.00',
        msisdn: msisdnEnding('06', 12),
        network: 'MTN',
      });
      await waitForEvent(slow, 'payment:updated', (p) => p.state === 'submitting');
      const second = await slow.invoke('payments:charge', {
        requestId: requestId(),
        amount: '3.00',
        msisdn: msisdnEnding('12', 12),
        network: 'MTN',
      });
      expect(second).toEqual({ ok: false, message: expect.stringContaining('still being sent') });
      const done = await first;
      expect(done.ok && done.payment.state).toBe('awaiting_customer');
      expect(proxy.bodies).toHaveLength(1);
    } finally {
      fixture.services.clock.release();
      await slow.close();
      await proxy.close();
    }
  });

  it('an initialize that times out is retried with the same merchantRef and body: one charge only', async () => {
    const proxy = await startProxy(fixture.services.sandbox.baseUrl);
    const dir = join(fixture.root, 'till-timeout');
    const till = await openCore(dir, { http: { connectTimeoutMs: 1_000, responseTimeoutMs: 120 }, retryDelaysMs: [30] });
    try {
      await configureThroughProxy(till, proxy.url);
      // The sandbox takes the payment (its customer held back), but its answer reaches the till
      // after the till's 120 ms response time-out.
      proxy.hold(1, 220);
      fixture.services.clock.hold();
      const result = await till.invoke('payments:charge', {
        requestId: requestId(),
        amount: '42.00',
        msisdn: msisdnEnding('06', 21),
        network: 'MTN',
      });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.payment.state).toBe('uncertain');
      expect(result.payment.errorMessage).toMatch(/same payment again until its deadline: the service takes it at most once/);
      fixture.services.clock.release();
      const final = await waitForState(till, result.payment.id, ['success']);
      expect(final.merchantRef).toBe(result.payment.merchantRef);
      expect(proxy.bodies.length).toBeGreaterThanOrEqual(2);
      expect(new Set(proxy.bodies).size).toBe(1); // byte-for-byte the same request
      const atService = (await sandboxTransactions(fixture.services)).filter((t) => t.clientReference === result.payment.merchantRef);
      expect(atService).toHaveLength(1);
      expect(atService[0]?.status).toBe('SUCCESS');
    } finally {
      fixture.services.clock.release();
      await till.close();
      await proxy.close();
    }
  });
});

describe('results that arrive late', () => {
  it('a result delivered while the till was stopped is applied at the next start', async () => {
    const dir = join(fixture.root, 'till-stopped');
    let till = await openCore(dir);
    await configureTest(till, fixture.services);
    fixture.services.clock.hold();
    const started = await charge(till, msisdnEnding('06', 31), '15.00');
    await till.close();
    fixture.services.clock.release(); // approved while the till is stopped
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await fetch(`${fixture.services.relay.url}/v1/transactions/${started.reference}`, {
        headers: { authorization: `Bearer ${fixture.services.token}` },
      });
      await res.body?.cancel();
      if (res.status === 200) break;
      if (Date.now() > deadline) throw new Error('the relay never got the result');
      await new Promise((r) => setTimeout(r, 50));
    }
    till = await openCore(dir);
    try {
      const final = await waitForState(till, started.id, ['success']);
      expect(final.net).toBe('14.71');
    } finally {
      await till.close();
    }
  });

  it('a relay restart in the middle of a payment: reconnect, and the result still lands', async () => {
    const states: string[] = [];
    const off = fixture.core.on('relay:state', (p) => states.push(p.state));
    const started = await charge(fixture.core, msisdnEnding('06', 41), '9.00');
    await fixture.services.restartRelay(400); // the sandbox's first deliveries fail; its retries reach the new relay
    const final = await waitForState(fixture.core, started.id, ['success'], 15_000);
    expect(final.state).toBe('success');
    // The result may land through catch-up just before the stream reports itself connected again.
    if (states.at(-1) !== 'connected') await waitForEvent(fixture.core, 'relay:state', (p) => p.state === 'connected');
    off();
    expect(states).toContain('reconnecting');
    expect((await fixture.core.invoke('app:status', {})).relayState).toBe('connected');
  });

  it('stopping waiting keeps the payment, and its late result still lands', async () => {
    fixture.services.clock.hold();
    const started = await charge(fixture.core, msisdnEnding('06', 51), '4.00');
    const stopped = await fixture.core.invoke('payments:stopWaiting', { id: started.id });
    expect(stopped?.stoppedWaiting).toBe(true);
    expect((await fixture.core.invoke('payments:pending', {})).items.map((p) => p.id)).toContain(started.id);
    fixture.services.clock.release();
    const final = await waitForState(fixture.core, started.id, ['success']);
    expect(final.stoppedWaiting).toBe(true);
  });

  it('a revoked relay token is reported offline, and the till catches up once it is valid again', async () => {
    const till = await openCore(join(fixture.root, 'till-revoked'));
    try {
      await configureTest(till, fixture.services);
      await waitForEvent(till, 'relay:state', (p) => p.state === 'connected').catch(() => undefined);
      const offline = waitForEvent(till, 'relay:state', (p) => p.state === 'offline');
      fixture.services.setRelayConfig({ ...fixture.services.config, tills: [] });
      await offline;
      expect((await till.invoke('app:status', {})).relayState).toBe('offline');
      const started = await charge(till, msisdnEnding('00', 61), '6.00'); // its result reaches the relay meanwhile
      await new Promise((r) => setTimeout(r, 300));
      expect((await till.invoke('payments:get', { id: started.id }))?.state).toBe('awaiting_customer');
      fixture.services.setRelayConfig(fixture.services.config);
      expect((await waitForState(till, started.id, ['success'], 15_000)).state).toBe('success');
    } finally {
      fixture.services.setRelayConfig(fixture.services.config);
      await till.close();
    }
  });
});

describe("the stored wallet name is the core's own lookup (issue 20 item 12)", () => {
  it("ignores the renderer's customerName: empty without a lookup, the service's name after one, whatever was sent", async () => {
    const msisdn = msisdnEnding('00', 31);
    const forged = { amount: '2.00', msisdn, network: 'MTN', customerName: '\u202eForged Name, paid in full' };
    const before = await fixture.core.invoke('payments:charge', { ...forged, requestId: requestId() });
    expect(before.ok && before.payment.customerName).toBeNull();
    const looked = await fixture.core.invoke('payments:resolveAccount', { msisdn, network: 'MTN' });
    expect(looked.name).toEqual(expect.any(String));
    if (before.ok) await waitForState(fixture.core, before.payment.id, ['success', 'failed']);
    const after = await fixture.core.invoke('payments:charge', { ...forged, requestId: requestId() });
    expect(after.ok && after.payment.customerName).toBe(looked.name);
    if (after.ok) await waitForState(fixture.core, after.payment.id, ['success', 'failed']);
  });
});
