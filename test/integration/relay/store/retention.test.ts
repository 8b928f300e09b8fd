/**
 * Retention on both stores (real SQLite files, a real PostgreSQL cluster): events older than the
 * retention are pruned in batches, a repeat of a pruned reference is still answered as a repeat
 * (not stored again), a conflicting one is still refused, and a till whose cursor points into the
 * pruned part is told so (410 CURSOR_PRUNED) and, with the till's real relay client, reads on from
 * the oldest kept event.
 */
import { expect, it } from 'vitest';
import { relayPageSchema } from '../../../../shared/relay-wire.js';
import { waitFor } from '../../../support/wait-for.js';
import { deliver, get, LIVE_KEY, SseClient, TEST_KEY, transaction } from '../helpers.js';
import { describeEachStore, TEST_MERCHANT, type StoreFixture } from '../stores.js';
import { tillRelayClient } from '../till-client.js';

const DAY = 86_400_000;

/** A relay on a clock the test moves: deliveries made "100 days ago", then today. */
async function startAged(store: StoreFixture, log?: (l: Record<string, unknown>) => void) {
  const clock = { now: Date.now() - 100 * DAY };
  const started = await store.start({ now: () => clock.now, log });
  const send = (data: Record<string, unknown>, key = TEST_KEY) =>
    deliver(started.relay.url, data, key, { timestamp: Math.floor(clock.now / 1000) });
  return { ...started, clock, send };
}

async function page(url: string, token: string, after: number) {
  return get(`${url}/v1/transactions?after=${after}&limit=500`, token);
}

describeEachStore('relay retention', (store) => {
  it('prunes only events older than the retention, in batches, and keeps the log numbered on', async () => {
    const r = await startAged(store);
    try {
      const old = Array.from({ length: 7 }, () => transaction('test'));
      for (const tx of old) expect((await r.send(tx)).status).toBe(200);
      r.clock.now = Date.now();
      const recent = [transaction('test'), transaction('live')];
      expect((await r.send(recent[0]!)).status).toBe(200);
      expect((await r.send(recent[1]!, LIVE_KEY)).status).toBe(200);

      expect(await r.relay.prune()).toBe(7);
      expect(await r.relay.prune()).toBe(0);
      const kept = relayPageSchema.parse((await page(r.relay.url, r.token, 0)).json);
      expect(kept.items.map((e) => e.seq)).toEqual([8, 9]);
      expect(kept.items.map((e) => e.transaction.reference)).toEqual(recent.map((t) => t.reference));
      // The next event is numbered after everything ever stored, pruned or not.
      expect((await r.send(transaction('test'))).json).toMatchObject({ seq: 10, duplicate: false });
    } finally {
      await r.cleanup();
    }
  });

  it('answers a repeat of a pruned reference as a repeat, and never stores it again', async () => {
    const r = await startAged(store);
    try {
      const tx = transaction('test');
      const other = transaction('test');
      expect((await r.send(tx)).json).toMatchObject({ seq: 1, duplicate: false });
      expect((await r.send(other)).json).toMatchObject({ seq: 2, duplicate: false });
      r.clock.now = Date.now();
      expect(await r.relay.prune()).toBe(2);

      // The service's repeat, months later: same final state.
      const again = await r.send(tx);
      expect(again.status).toBe(200);
      expect(again.json).toMatchObject({ seq: 1, duplicate: true });
      // Same reference, another final state: still refused, still not stored.
      expect((await r.send({ ...other, description: 'Another final state' })).status).toBe(409);
      const after = relayPageSchema.parse((await page(r.relay.url, r.token, 0)).json);
      expect(after.items).toEqual([]);
      // The same reference in the other environment is another event.
      expect(
        (await r.send({ ...tx, customer: { msisdn: '233241234567', network: 'MTN' }, sandbox: undefined }, LIVE_KEY)).json,
      ).toMatchObject({
        seq: 3,
        duplicate: false,
      });
      expect((await r.send(transaction('test'))).json).toMatchObject({ seq: 4, duplicate: false });
    } finally {
      await r.cleanup();
    }
  });

  it('sets aside an event it cannot prune, logged with its merchant, and prunes the rest, named by merchant and range', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const r = await startAged(store, (l) => lines.push(l));
    try {
      for (let i = 0; i < 4; i++) expect((await r.send(transaction('test'))).status).toBe(200);
      // What PostgreSQL's jsonb cannot read (acknowledged before the relay refused it); on SQLite, JSON cut short.
      const unreadable = store.name === 'PostgreSQL' ? '{"description":"x\\u0000"}' : '{"description":';
      await r.sql(`UPDATE events SET transaction_json = ${store.name === 'SQLite' ? '?' : '$1'} WHERE seq = 2`, [unreadable]);
      r.clock.now = Date.now();
      expect((await r.send(transaction('test'))).status).toBe(200);

      expect(await r.relay.prune()).toBe(4);
      const merchantId = store.name === 'SQLite' ? 'MCH_default' : TEST_MERCHANT;
      expect(lines.filter((l) => l.msg === 'prune_set_aside')).toEqual([expect.objectContaining({ level: 'warn', merchantId, seq: 2 })]);
      expect(lines.filter((l) => l.msg === 'events_pruned')).toEqual([
        expect.objectContaining({ merchantId, fromSeq: 1, throughSeq: 4, count: 4, setAside: 1 }),
      ]);
      expect(lines.filter((l) => l.msg === 'prune_failed')).toEqual([]);
      const kept = relayPageSchema.parse((await page(r.relay.url, r.token, 4)).json);
      expect(kept.items.map((e) => e.seq)).toEqual([5]);
    } finally {
      await r.cleanup();
    }
  });

  it("tells a till whose cursor is in the pruned part (410 CURSOR_PRUNED, the stream's reset); from 0 it gets what is kept", async () => {
    const r = await startAged(store);
    try {
      for (let i = 0; i < 4; i++) expect((await r.send(transaction('test'))).status).toBe(200);
      r.clock.now = Date.now();
      expect((await r.send(transaction('test'))).status).toBe(200);
      expect(await r.relay.prune()).toBe(4);

      const behind = await page(r.relay.url, r.token, 2);
      expect(behind.status).toBe(410);
      expect(behind.json).toMatchObject({ error: { code: 'CURSOR_PRUNED', prunedThrough: 4, lastSeq: 5 } });
      // The stream says so too (it used to jump from 2 to 5 without a word), then reads on from the mark.
      const stream = await SseClient.connect(`${r.relay.url}/v1/events`, r.token, { 'last-event-id': '2' });
      try {
        await stream.waitFor((c) => c.events.length === 1);
        const reset = stream.messages.find((m) => m.event === 'reset');
        expect(JSON.parse(reset?.data ?? 'null')).toMatchObject({ reason: 'pruned', prunedThrough: 4, readFrom: 4, lastSeq: 5 });
        expect(stream.events.map((e) => e.seq)).toEqual([5]);
      } finally {
        stream.close();
      }
      const atMark = relayPageSchema.parse((await page(r.relay.url, r.token, 4)).json);
      expect(atMark.items.map((e) => e.seq)).toEqual([5]);
      const fromZero = relayPageSchema.parse((await page(r.relay.url, r.token, 0)).json);
      expect(fromZero.items.map((e) => e.seq)).toEqual([5]);
    } finally {
      await r.cleanup();
    }
  });

  it("the till's real relay client reads on from the oldest kept event after a prune, and says what it missed", async () => {
    const r = await startAged(store);
    const till = tillRelayClient(() => r.relay, r.token);
    const { got, lines, client } = till;
    try {
      // The till reads the first event, then is off for months.
      expect((await r.send(transaction('test'))).status).toBe(200);
      const first = client();
      first.start();
      await waitFor(() => got.length === 1);
      await first.stop();
      for (let i = 0; i < 3; i++) expect((await r.send(transaction('test'))).status).toBe(200);
      r.clock.now = Date.now();
      const recent = [transaction('test'), transaction('test')];
      for (const tx of recent) expect((await r.send(tx)).status).toBe(200);
      expect(await r.relay.prune()).toBe(4);

      const back = client();
      back.start();
      await waitFor(() => got.length === 3);
      expect(got.map((e) => e.transaction.reference).slice(1)).toEqual(recent.map((t) => t.reference));
      expect(lines.find((l) => l.event === 'relay.events_pruned')).toMatchObject({ cursor: 1, prunedThrough: 4, missed: 3 });
      // And it follows the live stream from there.
      const live = transaction('test');
      expect((await r.send(live)).status).toBe(200);
      await waitFor(() => got.length === 4);
      expect(got[3]?.transaction.reference).toBe(live.reference);
      expect(back.lastSeq).toBe(7);
      await back.stop();
    } finally {
      till.close();
      await r.cleanup();
    }
  });
});
