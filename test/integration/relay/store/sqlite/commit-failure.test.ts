/**
 * No acknowledgement without a commit: when the commit cannot happen (here: another process
 * holds the database's write lock), the relay answers 503 so the service retries, and stores and
 * pushes nothing. Once the database is writable again the retry is accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { relayPageSchema } from '../../../../../shared/relay-wire.js';
import { startRelay, type RunningRelay } from '../../../../../relay/http/index.js';
import { deliver, get, LIVE_KEY, makeConfig, SseClient, transaction } from '../../helpers.js';
import { removeDir, tempDir } from '../../../../support/temp-dir.js';
import { sleep } from '../../../../support/wait-for.js';

describe('relay: a failed commit is answered 503', () => {
  const tmp = tempDir('relay');
  let relay: RunningRelay;
  let token: string;
  const logs: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const made = makeConfig({ busyTimeoutMs: 50 });
    token = made.token;
    relay = await startRelay({ dataDir: tmp, config: made.config, log: (l) => logs.push(l) });
  });
  afterAll(async () => {
    await relay.close();
    removeDir(tmp);
  });

  it('answers 503 while the database cannot commit, then accepts the retry', async () => {
    const sse = await SseClient.connect(`${relay.url}/v1/events`, token);
    const blocker = new Database(join(tmp, 'relay.sqlite'));
    blocker.prepare('BEGIN IMMEDIATE').run();
    const tx = transaction('live');
    const other = transaction('live');
    try {
      const [a, b] = await Promise.all([deliver(relay.url, tx, LIVE_KEY), deliver(relay.url, other, LIVE_KEY)]);
      expect(a.status).toBe(503);
      expect(b.status).toBe(503);
      expect(relay.metrics.commitFailures.get()).toBe(2);
      // Aggregated like the other warnings: one line for the first failure, with its
      // reference and request id; the second is counted in the summary line that follows.
      const failed = logs.filter((l) => l.msg === 'commit_failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ level: 'error', count: 1 });
      expect([tx.reference, other.reference]).toContain(failed[0]!.reference);
      expect(failed[0]!.requestId).toEqual(expect.any(String));
    } finally {
      blocker.prepare('ROLLBACK').run();
      blocker.close();
    }
    const page = relayPageSchema.parse((await get(`${relay.url}/v1/transactions?after=0`, token)).json);
    expect(page.items).toHaveLength(0);
    await sleep(30);
    expect(sse.events).toHaveLength(0);

    const retry = await deliver(relay.url, tx, LIVE_KEY);
    expect(retry.status).toBe(200);
    expect(retry.json).toMatchObject({ seq: 1, duplicate: false });
    await sse.waitFor((c) => c.events.length === 1);
    expect(sse.events[0]!.transaction.reference).toBe(tx.reference);
    sse.close();
  });
});
