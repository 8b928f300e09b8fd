import { afterAll, describe, expect, it } from 'vitest';
import { relayPageSchema } from '../../../../shared/relay-wire.js';
import { startRelay, type RunningRelay } from '../../../../relay/http/index.js';
import { parseRelayConfig } from '../../../../relay/ops/index.js';
import { deliver, get, LIVE_KEY, makeConfig, SseClient, TEST_KEY, transaction } from '../helpers.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';
import { sleep } from '../../../support/wait-for.js';

describe('relay: resumption, heartbeat, restart, revocation', () => {
  const tmp = tempDir('relay');
  const made = makeConfig({ heartbeatSeconds: 0.1 });
  const token = made.token;
  let relay: RunningRelay | undefined;
  const open: SseClient[] = [];

  afterAll(async () => {
    for (const c of open) c.close();
    await relay?.close();
    removeDir(tmp);
  });

  async function sse(url: string, headers: Record<string, string> = {}, tok = token) {
    const c = await SseClient.connect(url, tok, headers);
    open.push(c);
    return c;
  }

  it('resumes from Last-Event-ID after a disconnect with no gap and no duplicate', async () => {
    relay = await startRelay({ dataDir: tmp, config: made.config, log: () => {} });
    const first = await sse(`${relay.url}/v1/events`);
    const before = Array.from({ length: 5 }, () => transaction('live'));
    for (const tx of before) expect((await deliver(relay.url, tx, LIVE_KEY)).status).toBe(200);
    await first.waitFor((c) => c.events.length === 5);
    const lastId = first.messages[first.messages.length - 1]!.id!;
    first.close();
    await sleep(20);

    // Delivered while the till is offline, the test one included.
    const missed = [transaction('live'), transaction('test'), transaction('live')];
    expect((await deliver(relay.url, missed[0]!, LIVE_KEY)).status).toBe(200);
    expect((await deliver(relay.url, missed[1]!, TEST_KEY)).status).toBe(200);
    expect((await deliver(relay.url, missed[2]!, LIVE_KEY)).status).toBe(200);

    // The reconnecting EventSource sends Last-Event-ID; the URL's ?after= (older) must lose.
    const second = await sse(`${relay.url}/v1/events?after=1`, { 'last-event-id': lastId });
    await second.waitFor((c) => c.events.length >= 3);
    const after = transaction('live');
    expect((await deliver(relay.url, after, LIVE_KEY)).status).toBe(200);
    await second.waitFor((c) => c.events.length >= 4);
    await sleep(50);

    const seqs = second.events.map((e) => e.seq);
    expect(seqs[0]).toBe(Number(lastId) + 1);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => Number(lastId) + 1 + i));
    expect(second.events.map((e) => e.transaction.reference)).toEqual([...missed, after].map((t) => t.reference));
    const all = [...first.events, ...second.events].map((e) => e.seq);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual(Array.from({ length: 9 }, (_, i) => i + 1));

    // ?after= alone, filtered to live: only live events after 5.
    const live = await sse(`${relay.url}/v1/events?after=5&environment=live`);
    await live.waitFor((c) => c.events.length >= 3);
    expect(live.events.map((e) => e.seq)).toEqual([6, 8, 9]);
    live.close();
  });

  it('sends a heartbeat comment on idle streams', async () => {
    const c = await sse(`${relay!.url}/v1/events?after=1000`);
    await c.waitFor((x) => x.comments.filter((m) => m.startsWith('heartbeat')).length >= 2, 3000);
    expect(c.events).toHaveLength(0);
    c.close();
  });

  it('keeps the log and the sequence across a restart on the same data dir', async () => {
    const beforeRestart = relayPageSchema.parse((await get(`${relay!.url}/v1/transactions?after=0&limit=100`, token)).json);
    expect(beforeRestart.items).toHaveLength(9);
    const dup = beforeRestart.items[2]!.transaction;
    await relay!.close();

    relay = await startRelay({ dataDir: tmp, adminPort: 0, config: made.config, log: () => {} });
    const afterRestart = relayPageSchema.parse((await get(`${relay.url}/v1/transactions?after=0&limit=100`, token)).json);
    expect(afterRestart).toEqual(beforeRestart);

    // Dedupe is permanent: a retry arriving after the restart is acknowledged, not stored again.
    const repeat = await deliver(relay.url, dup as Record<string, unknown>, LIVE_KEY);
    expect(repeat.status).toBe(200);
    expect(repeat.json).toMatchObject({ duplicate: true, seq: 3 });

    const c = await sse(`${relay.url}/v1/events?after=9`);
    const next = transaction('live');
    const res = await deliver(relay.url, next, LIVE_KEY);
    expect(res.json).toMatchObject({ seq: 10, duplicate: false });
    await c.waitFor((x) => x.events.length === 1);
    expect(c.events[0]!.seq).toBe(10);
    expect((await get(`${relay.url}/healthz`)).json).toEqual({ ok: true });
    expect((await get(`${relay.adminUrl}/metrics`)).body).toMatch(/^relay_event_log_last_seq 10$/m);
  });

  it('ends the streams of a revoked token and refuses it afterwards', async () => {
    const second = makeConfig();
    const config = parseRelayConfig({
      ...made.config,
      tills: [...made.config.tills, ...second.config.tills.map((t) => ({ ...t, label: 'back-office' }))],
    });
    relay!.setConfig(config);
    const kept = await sse(`${relay!.url}/v1/events?after=10`);
    const revoked = await sse(`${relay!.url}/v1/events?after=10`, {}, second.token);
    expect(revoked.status).toBe(200);
    relay!.setConfig(made.config);
    await revoked.waitFor((c) => c.closed, 2000).catch(() => undefined);
    expect(revoked.closed).toBe(true);
    expect(kept.closed).toBe(false);
    expect((await get(`${relay!.url}/v1/transactions`, second.token)).status).toBe(401);
    expect((await get(`${relay!.url}/v1/transactions`, token)).status).toBe(200);
  });

  it('refuses a database written by a newer relay', async () => {
    await relay!.close();
    const Database = (await import('better-sqlite3')).default;
    const { join } = await import('node:path');
    const db = new Database(join(tmp, 'relay.sqlite'));
    db.pragma('user_version = 99');
    db.close();
    await expect(startRelay({ dataDir: tmp, config: made.config, log: () => {} })).rejects.toThrow(/newer/);
    relay = undefined;
  });
});
