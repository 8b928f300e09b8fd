/**
 * A cashier's payment channels on a real core: payments:get, payments:pending, payments:stopWaiting,
 * receipt:preview and receipt:print see only the payments the cashier started in their own open shift;
 * any other answers as an unknown id does. A manager sees every payment. After a restart, what happened
 * to the payments left open is told once someone has signed in, in the same scope; nothing at the lock.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemorySecretStore, createTillCore, type TillCore } from '../../../../electron/core/index.js';
import { openDatabase } from '../../../../electron/core/storage/database.js';
import { openUnitCore, signInShift } from '../../../support/unit-core.js';
import { writeShiftPayments } from '../../../support/payment-rows.js';

let dir: string;
let core: TillCore;
let close: () => Promise<void>;
const PINS = { kofi: '1357', ama: '8642', efua: '5791' };

beforeEach(async () => {
  ({ dir, core, close } = await openUnitCore('momo-payment-scope-'));
  await core.invoke('owner:setPin', { pin: '2468' });
  const kofi = await core.invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: PINS.kofi });
  const ama = await core.invoke('staff:add', { name: 'Ama', role: 'cashier', pin: PINS.ama });
  await core.invoke('staff:add', { name: 'Efua', role: 'manager', pin: PINS.efua });
  const kofiOld = await signInShift(core, PINS.kofi);
  await core.invoke('session:signOut', {}); // closes Kofi's first shift
  const amaShift = await signInShift(core, PINS.ama);
  const kofiNow = await signInShift(core, PINS.kofi); // Ama's shift stays open: switching is not signing out
  const k = { staffId: kofi.id, name: 'Kofi' };
  const a = { staffId: ama.id, name: 'Ama' };
  writeShiftPayments(dir, [
    { id: 'KOFI-OLD-PAID', shiftId: kofiOld, ...k, state: 'success' },
    { id: 'KOFI-PAID', shiftId: kofiNow, ...k, state: 'success' },
    { id: 'KOFI-WAIT', shiftId: kofiNow, ...k, state: 'awaiting_customer' },
    { id: 'AMA-PAID', shiftId: amaShift, ...a, state: 'success' },
    { id: 'AMA-WAIT', shiftId: amaShift, ...a, state: 'awaiting_customer' },
  ]);
}, 30_000);
afterEach(() => close());

const code = (call: Promise<unknown>) =>
  call.then(
    () => 'answered',
    (e: { code: string }) => e.code,
  );
const pendingIds = async () => (await core.invoke('payments:pending', {})).items.map((p) => p.id).sort();

describe("a cashier's payment channels", () => {
  it('payments:get answers for their own open shift only, as for an unknown id otherwise', async () => {
    expect((await core.invoke('payments:get', { id: 'KOFI-PAID' }))?.id).toBe('KOFI-PAID');
    expect(await core.invoke('payments:get', { id: 'AMA-PAID' })).toBeNull();
    expect(await core.invoke('payments:get', { id: 'KOFI-OLD-PAID' })).toBeNull();
    expect(await core.invoke('payments:get', { id: 'NO-SUCH' })).toBeNull();
  });

  it("payments:pending lists their own shift's open payments only", async () => {
    expect(await pendingIds()).toEqual(['KOFI-WAIT']);
  });

  it("payments:stopWaiting leaves someone else's payment alone", async () => {
    expect(await core.invoke('payments:stopWaiting', { id: 'AMA-WAIT' })).toBeNull();
    // Who stopped waiting is kept by name: the late result names them to whoever is at the till then.
    expect(await core.invoke('payments:stopWaiting', { id: 'KOFI-WAIT' })).toMatchObject({ stoppedWaiting: true, stoppedBy: 'Kofi' });
    await core.invoke('session:signIn', { pin: PINS.ama });
    expect((await core.invoke('payments:get', { id: 'AMA-WAIT' }))?.stoppedWaiting).toBe(false);
  });

  it('receipt:preview and receipt:print refuse any other payment with NOT_FOUND, as an unknown id', async () => {
    expect((await core.invoke('receipt:preview', { paymentId: 'KOFI-PAID' })).documents[0]?.title).toBe('customer receipt');
    expect((await core.invoke('receipt:print', { paymentId: 'KOFI-PAID', reprint: true })).documents.length).toBe(1);
    for (const paymentId of ['AMA-PAID', 'KOFI-OLD-PAID', 'NO-SUCH']) {
      expect(await code(core.invoke('receipt:preview', { paymentId }))).toBe('NOT_FOUND');
      expect(await code(core.invoke('receipt:print', { paymentId, reprint: true }))).toBe('NOT_FOUND');
    }
  });

  it('a manager sees every payment on each of these channels', async () => {
    await core.invoke('session:signIn', { pin: PINS.efua });
    expect((await core.invoke('payments:get', { id: 'AMA-PAID' }))?.id).toBe('AMA-PAID');
    expect((await core.invoke('payments:get', { id: 'KOFI-OLD-PAID' }))?.id).toBe('KOFI-OLD-PAID');
    expect(await pendingIds()).toEqual(['AMA-WAIT', 'KOFI-WAIT']);
    expect(await code(core.invoke('receipt:preview', { paymentId: 'AMA-PAID' }))).toBe('answered');
    expect(await code(core.invoke('receipt:print', { paymentId: 'KOFI-OLD-PAID', reprint: true }))).toBe('answered');
  });
});

/** A result lands on a payment, as the relay's catch-up would, through another connection to till.db. */
function land(id: string, state: 'success' | 'failed'): void {
  const db = openDatabase(join(dir, 'till.db'));
  try {
    db.prepare('UPDATE payments SET state = ?, completed_at = 5000, reference = ? WHERE id = ?').run(state, `REF-${id}`, id);
  } finally {
    db.close();
  }
}

describe('after a restart', () => {
  it('nothing at the lock; once signed in, the payments left open whose state changed since the start, as far as the caller may see', async () => {
    await core.close();
    const restarted = await createTillCore({ dataDir: dir, embedded: false, secretStore: createMemorySecretStore(), log: () => undefined });
    try {
      const pending = async () => {
        const { items, leftOpen } = await restarted.invoke('payments:pending', {});
        return { items: items.map((p) => p.id).sort(), leftOpen: leftOpen.map((p) => `${p.id} ${p.state}`).sort() };
      };
      land('KOFI-WAIT', 'success'); // while the till starts
      expect(await code(restarted.invoke('payments:pending', {}))).toBe('FORBIDDEN');
      await restarted.invoke('session:signIn', { pin: PINS.kofi });
      expect(await pending()).toEqual({ items: [], leftOpen: ['KOFI-WAIT success'] });
      land('AMA-WAIT', 'failed'); // while Kofi sells: Ama's, not his to see
      expect(await pending()).toEqual({ items: [], leftOpen: ['KOFI-WAIT success'] });
      await restarted.invoke('session:signIn', { pin: PINS.efua });
      expect(await pending()).toEqual({ items: [], leftOpen: ['AMA-WAIT failed', 'KOFI-WAIT success'] });
    } finally {
      await restarted.close();
    }
  });
});
