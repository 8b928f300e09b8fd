/**
 * A relay whose database is wiped or replaced (a new VPS, a restored backup) numbers its log from 1
 * again. The till keeps its cursor (the last sequence it read) but also the relay's log id; with the
 * real sandbox, the real relay and the real till core on loopback: after the relay is replaced by one
 * with a fresh data dir on the same port, a new payment's result still reaches the till (its cursor
 * was ahead of the new log's numbers, so without the log id it would wait for them and miss it), and
 * going back to the old relay re-reads its log without counting anything twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { startRelay, type RunningRelay } from '../../../relay/http/index.js';
import { msisdnEnding, startSale, waitForEvent, waitForState } from './helpers.js';
import { useTill } from '../../support/till-fixture.js';

const fixture = useTill('till-relay-replaced', { connected: true });
let port: number;
const replacements: RunningRelay[] = [];

beforeAll(() => {
  port = Number(new URL(fixture.services.relay.url).port);
});

afterAll(async () => {
  for (const r of replacements) await r.close().catch(() => undefined);
});

const pay = (msisdn: string, amount: string) => startSale(fixture.core, msisdn, amount, 'Relay replaced');

/** The till's stored cursor, read from its SQLite file through a second (read-only) connection. */
function cursor(): { last_seq: number; log_id: string | null } {
  const db = new Database(join(fixture.root, 'till', 'till.db'), { readonly: true });
  try {
    return db.prepare("SELECT last_seq, log_id FROM relay_cursor WHERE environment = 'test'").get() as {
      last_seq: number;
      log_id: string | null;
    };
  } finally {
    db.close();
  }
}

async function replaceRelay(dataDir: string): Promise<RunningRelay> {
  for (const r of replacements) await r.close();
  await fixture.services.stopRelay();
  const relay = await startRelay({ port, dataDir, config: fixture.services.config, log: () => {} });
  replacements.push(relay);
  return relay;
}

const resets = () => fixture.core.lines.filter((l) => l.event === 'relay.cursor_reset');

describe('the relay replaced under the till', () => {
  let oldLogId: string | null = null;
  const first: string[] = [];

  it('payments before the replacement land and move the cursor', async () => {
    for (const [i, suffix] of ['00', '00', '00'].entries()) {
      const p = await pay(msisdnEnding(suffix, 300 + i), '5.00');
      expect((await waitForState(fixture.core, p.id, ['success'])).state).toBe('success');
      first.push(p.id);
    }
    const c = cursor();
    expect(c.last_seq).toBeGreaterThanOrEqual(3);
    expect(c.log_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    oldLogId = c.log_id;
  });

  it('a relay with a fresh data dir on the same port: the next result still reaches the till', async () => {
    const before = cursor().last_seq;
    await replaceRelay(join(fixture.root, 'relay-fresh'));
    const p = await pay(msisdnEnding('00', 310), '8.00');
    const final = await waitForState(fixture.core, p.id, ['success'], 15_000);
    expect(final.state).toBe('success');
    expect(final.reference).toBe(p.reference);
    // The new log numbered it 1, below the old cursor: only the reset made the till read it.
    const c = cursor();
    expect(c.last_seq).toBe(1);
    expect(c.last_seq).toBeLessThan(before);
    expect(c.log_id).not.toBe(oldLogId);
    expect(c.log_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const warned = resets();
    expect(warned.length).toBeGreaterThanOrEqual(1);
    // The fresh log is behind the cursor (409 CURSOR_AHEAD) and has another id: reported as a changed log.
    expect(warned[0]).toMatchObject({ level: 'warn', environment: 'test', reason: 'log_changed', cursor: before });
    expect(warned[0]!.relayLastSeq).toBeLessThan(before); // 0 or 1: the till may reconnect before or after the result arrives
    // No personal data in the warning: only these fields.
    expect(Object.keys(warned[0]!).sort()).toEqual(['cursor', 'environment', 'event', 'level', 'reason', 'relayLastSeq', 'time']);
    await waitForEvent(fixture.core, 'relay:state', (s) => s.state === 'connected', 5_000).catch(() => undefined);
    expect((await fixture.core.invoke('app:status', {})).relayState).toBe('connected');
  });

  it('back to the old relay (a restored data dir): its log is read again from 0, nothing counted twice', async () => {
    const takingsBefore = await fixture.core.invoke('history:search', { query: '', page: 0, pageSize: 50 });
    const resetsBefore = resets().length;
    // The original relay's data dir, as it was: its log id, and sequence numbers up to 3.
    for (const r of replacements.splice(0)) await r.close();
    await fixture.services.startRelayAgain();
    const p = await pay(msisdnEnding('00', 320), '2.00');
    expect((await waitForState(fixture.core, p.id, ['success'], 15_000)).state).toBe('success');
    expect(cursor().log_id).toBe(oldLogId);
    expect(resets().length).toBeGreaterThan(resetsBefore);
    const after = await fixture.core.invoke('history:search', { query: '', page: 0, pageSize: 50 });
    expect(after.total).toBe(takingsBefore.total + 1);
    const refs = after.items.map((i) => i.reference);
    expect(new Set(refs).size).toBe(refs.length);
    for (const id of first) expect((await fixture.core.invoke('payments:get', { id }))?.state).toBe('success');
  });
});
