/**
 * The duplicate question on a real core: `payments:similar` sees the whole shop whatever the caller's
 * History shows (another cashier's open payment at this till, one PAID minutes ago, another till's PAID
 * result that came through the relay), names who started it and where, and tells nothing else of it.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TillCore } from '../../../../electron/core/index.js';
import { openDatabase } from '../../../../electron/core/storage/database.js';
import { PaymentsRepo } from '../../../../electron/core/payments/payments-repo.js';
import { TransactionsStore } from '../../../../electron/core/takings/transactions-store.js';
import type { WireTransaction } from '../../../../shared/wire/transaction.js';
import { openUnitCore, signInShift } from '../../../support/unit-core.js';
import { paymentRow } from '../../../support/payment-rows.js';

let dir: string;
let core: TillCore;
let close: () => Promise<void>;
let ama: { id: string };
const PINS = { kofi: '1357', ama: '8642' };
const NUMBER = '0241234567';

beforeEach(async () => {
  ({ dir, core, close } = await openUnitCore('momo-similar-'));
  await core.invoke('owner:setPin', { pin: '2468' });
  await core.invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: PINS.kofi });
  ama = await core.invoke('staff:add', { name: 'Ama', role: 'cashier', pin: PINS.ama });
}, 30_000);
afterEach(() => close());

/** Writes through another connection to the core's till.db, as the engine and the relay link write. */
function withDb(write: (db: ReturnType<typeof openDatabase>) => void): void {
  const db = openDatabase(join(dir, 'till.db'));
  try {
    write(db);
  } finally {
    db.close();
  }
}

async function amaPayment(id: string, state: 'awaiting_customer' | 'success' | 'failed', at: number): Promise<void> {
  const shift = await signInShift(core, PINS.ama);
  const { tillId } = await core.invoke('app:status', {});
  withDb((db) => {
    const repo = new PaymentsRepo(db);
    repo.insert(
      paymentRow(id, {
        till_id: tillId,
        merchant_ref: `${tillId}.01J${id}`,
        state,
        staff_id: ama.id,
        staff_name: 'Ama',
        shift_id: shift,
        created_at: at,
        updated_at: at,
      }),
    );
    if (state !== 'awaiting_customer')
      repo.update(id, { reference: `REF-${id}`, completed_at: at, ...(state === 'success' ? { fee: 1, net: 99 } : {}) }, at);
  });
}

const similar = (amount = '1.00', msisdn = NUMBER) => core.invoke('payments:similar', { msisdn, amount });

describe('payments:similar, two cashiers at one till', () => {
  it("Kofi is asked about Ama's open payment, which his History does not show", async () => {
    await amaPayment('AMA-WAIT', 'awaiting_customer', Date.now() - 60 * 60_000);
    await signInShift(core, PINS.kofi);
    expect((await core.invoke('history:search', { query: NUMBER, page: 0, pageSize: 20 })).items).toEqual([]);
    const { earlier } = await similar();
    expect(earlier).toEqual({
      state: 'open',
      amount: '1.00',
      msisdn: '233241234567',
      at: expect.any(String),
      startedBy: 'Ama',
      tillName: expect.any(String),
      thisTill: true,
    });
    expect((await similar('2.00')).earlier).toBeNull();
    // Ended unconfirmed (it may have reached the service, unanswered): its prompt may still come, so it still asks.
    withDb((db) => db.prepare("UPDATE payments SET state = 'unconfirmed' WHERE id = 'AMA-WAIT'").run());
    expect((await similar()).earlier).toMatchObject({ state: 'open', startedBy: 'Ama' });
    withDb((db) => db.prepare("UPDATE payments SET state = 'not_sent' WHERE id = 'AMA-WAIT'").run());
    expect((await similar()).earlier).toBeNull();
    expect((await similar('1.00', '0241234568')).earlier).toBeNull();
  });

  it('a PAID payment asks for a few minutes, then no longer; a NOT PAID one never asks', async () => {
    await amaPayment('AMA-PAID', 'success', Date.now() - 2 * 60_000);
    await amaPayment('AMA-FAILED', 'failed', Date.now() - 60_000);
    await signInShift(core, PINS.kofi);
    expect((await similar()).earlier).toMatchObject({ state: 'paid', startedBy: 'Ama', thisTill: true });
    withDb((db) =>
      db.prepare("UPDATE payments SET completed_at = ?, updated_at = ? WHERE id = 'AMA-PAID'").run(Date.now() - 10 * 60_000, 0),
    );
    expect((await similar()).earlier).toBeNull();
  });

  it('a bad number or amount is refused with a clear error, and the locked till may not ask', async () => {
    await signInShift(core, PINS.kofi);
    await expect(similar('1.005')).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(similar('1.00', '0302123')).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await core.invoke('session:lock', {});
    await expect(similar()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('payments:similar, another till through the relay', () => {
  it("names the other till and its cashier from the result's metadata", async () => {
    const completedAt = new Date(Date.now() - 60_000).toISOString();
    const tx = {
      reference: 'TX-BACK-1',
      clientReference: 'BACK0001.01JABCDEFGHJKMNPQRSTVWXYZ0',
      status: 'SUCCESS',
      amount: '1.00',
      fee: '0.01',
      net: '0.99',
      currency: 'GHS',
      customer: { msisdn: '233241234567', network: 'MTN' },
      description: 'secret note of the other shift',
      metadata: { till: 'BACK0001', tillName: 'Back room', cashierId: 'S-YAW', cashier: 'Yaw' },
      completedAt,
    } as WireTransaction;
    withDb((db) => new TransactionsStore(db, 'Africa/Accra').insert('test', tx, 1, Date.now()));
    await signInShift(core, PINS.kofi);
    const { earlier } = await similar();
    expect(earlier).toEqual({
      state: 'paid',
      amount: '1.00',
      msisdn: '233241234567',
      at: new Date(completedAt).toISOString(),
      startedBy: 'Yaw',
      tillName: 'Back room',
      thisTill: false,
    });
    expect(JSON.stringify(earlier)).not.toMatch(/TX-BACK-1|secret note|0\.99/);
  });
});
