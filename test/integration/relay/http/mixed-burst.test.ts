/**
 * Deliveries are verified, committed and answered in batches (all whose bodies arrive in one pass
 * of the event loop). A burst of concurrent deliveries mixing good and bad ones must still have
 * each one judged on its own: the bad ones refused and kept out, repeats acknowledged once, a
 * conflicting repeat refused, and the good ones stored in a gap-free sequence and pushed once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { relayPageSchema } from '../../../../shared/relay-wire.js';
import type { RunningRelay } from '../../../../relay/http/index.js';
import { describeEachStore, type StartedRelay } from '../stores.js';
import { deliver, get, LIVE_KEY, post, signedHeaders, SseClient, TEST_KEY, transaction, webhookBody } from '../helpers.js';

describeEachStore('relay: a burst mixing good and bad deliveries', (store) => {
  let started: StartedRelay;
  let relay: RunningRelay;
  let token: string;

  beforeAll(async () => {
    // Thirty good deliveries of one merchant at once: past its delivery share on a relay of many merchants,
    // which is not what is tested here (the share's own tests: delivery-share, proxy-tenants).
    started = await store.start({ settings: { deliveryBurstPerMerchant: 1_000 } });
    ({ relay, token } = started);
  });
  afterAll(async () => {
    await started.cleanup();
  });

  it('answers each delivery on its own merits and stores only the good ones, once each, without gaps', async () => {
    const sse = await SseClient.connect(`${relay.url}/v1/events`, token);
    const stored = transaction('test');
    expect((await deliver(relay.url, stored, TEST_KEY)).status).toBe(200);

    const good = Array.from({ length: 30 }, (_, i) => transaction(i % 2 ? 'test' : 'live'));
    const tampered = transaction('live');
    const tamperedBody = webhookBody(tampered);
    const wrongEnvironment = transaction('live');
    const invalid = transaction('test', { amount: '12.5' });
    const conflicting = { ...stored, amount: '99.00', net: '98.76' };

    type Case = { name: string; expect: number; send: () => ReturnType<typeof post> };
    const cases: Case[] = [
      ...good.map((tx, i): Case => ({ name: `good ${i}`, expect: 200, send: () => deliver(relay.url, tx, i % 2 ? TEST_KEY : LIVE_KEY) })),
      ...good
        .slice(0, 5)
        .map((tx, i): Case => ({ name: `repeat ${i}`, expect: 200, send: () => deliver(relay.url, tx, i % 2 ? TEST_KEY : LIVE_KEY) })),
      {
        name: 'tampered body',
        expect: 401,
        send: () => post(`${relay.url}/v1/webhooks`, tamperedBody.replace('12.50', '13.50'), signedHeaders(tamperedBody, LIVE_KEY)),
      },
      { name: 'live body, test key', expect: 400, send: () => deliver(relay.url, wrongEnvironment, TEST_KEY) },
      { name: 'invalid amount', expect: 400, send: () => deliver(relay.url, invalid, TEST_KEY) },
      { name: 'conflicting repeat', expect: 409, send: () => deliver(relay.url, conflicting, TEST_KEY) },
      { name: 'repeat of the stored one', expect: 200, send: () => deliver(relay.url, stored, TEST_KEY) },
    ];
    // Open the connections first (keep-alive), so the burst's requests reach the relay together and
    // are judged in one batch (here they share one commit; the assertions hold however they split).
    await Promise.all(cases.map(() => get(`${relay.url}/healthz`)));
    const results = await Promise.all(cases.map((c) => c.send()));
    expect(results.map((r, i) => `${cases[i]!.name}: ${r.status}`)).toEqual(cases.map((c) => `${c.name}: ${c.expect}`));

    // Repeats are acknowledged as duplicates of the first delivery's sequence number.
    const seqOf = new Map<string, number>();
    good.forEach((tx, i) => {
      const json = results[i]!.json as { seq: number; duplicate: boolean };
      seqOf.set(tx.reference, json.seq);
    });
    for (let i = 0; i < 5; i++) {
      const first = results[i]!.json as { seq: number; duplicate: boolean };
      const repeat = results[good.length + i]!.json as { seq: number; duplicate: boolean };
      // Either the first or the repeat may be the one stored (they race), never both.
      expect([first.duplicate, repeat.duplicate].sort()).toEqual([false, true]);
      expect(repeat.seq).toBe(first.seq);
    }

    // The log: the stored one plus the 30 good ones, sequence 1..31, nothing else.
    const page = relayPageSchema.parse((await get(`${relay.url}/v1/transactions?after=0&limit=100`, token)).json);
    expect(page.items.map((e) => e.seq)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    expect(new Set(page.items.map((e) => e.transaction.reference))).toEqual(new Set([stored.reference, ...good.map((tx) => tx.reference)]));
    for (const tx of good) expect(page.items.find((e) => e.transaction.reference === tx.reference)?.seq).toBe(seqOf.get(tx.reference));
    const byRef = new Map(page.items.map((e) => [e.transaction.reference, e]));
    expect(byRef.get(stored.reference)?.transaction.amount).toBe('12.50');

    // Pushed once each, in order.
    await sse.waitFor((c) => c.events.length === 31);
    expect(sse.events.map((e) => e.seq)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    sse.close();
  });
});
