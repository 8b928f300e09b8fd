/** Other tills' names: sent in each payment's metadata, read back from the echoed results, shown in takings by till. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTempTillDb } from '../../../support/temp-till-db.js';
import type { Db } from '../../../../electron/core/storage/database.js';
import { TransactionsStore } from '../../../../electron/core/takings/transactions-store.js';
import { Takings } from '../../../../electron/core/takings/takings.js';
import { MAX_METADATA_BYTES } from '../../../../shared/wire/initialize.js';
import { PAYMENT_METADATA_MAX_BYTES, paymentMetadata, paymentMetadataSchema, tillOf } from '../../../../shared/wire/payment-metadata.js';
import { transactionSchema } from '../../../../shared/wire/transaction.js';
import { sandboxSuccessTransaction } from '../../../support/wire-fixtures.js';
import { DayClose } from '../../../../electron/core/day/day-close.js';

describe('paymentMetadata', () => {
  it('carries the till id and name, and the cashier when someone is signed in', () => {
    expect(paymentMetadata({ id: 'TFRONT1', name: 'Front counter' }, null)).toEqual({ till: 'TFRONT1', tillName: 'Front counter' });
    expect(paymentMetadata({ id: 'TFRONT1', name: ' Front counter ' }, { id: 'S1', name: 'Ama' })).toEqual({
      till: 'TFRONT1',
      tillName: 'Front counter',
      cashierId: 'S1',
      cashier: 'Ama',
    });
  });

  it('stays inside its bound, itself inside the provider limit, at every field’s longest in 4-byte characters', () => {
    expect(PAYMENT_METADATA_MAX_BYTES).toBeLessThanOrEqual(MAX_METADATA_BYTES);
    const longest = paymentMetadata({ id: 'T'.repeat(64), name: '😀'.repeat(30) }, { id: 'S'.repeat(64), name: '😀'.repeat(20) });
    expect(longest.tillName).toBe('😀'.repeat(20)); // cut to 40 UTF-16 units, never through a character
    expect(new TextEncoder().encode(JSON.stringify(longest)).length).toBeLessThanOrEqual(PAYMENT_METADATA_MAX_BYTES);
  });

  it('leaves out an empty name, and refuses unknown fields or a cashier half given', () => {
    expect(paymentMetadata({ id: 'TFRONT1', name: '  ' }, null)).toEqual({ till: 'TFRONT1' });
    expect(paymentMetadataSchema.safeParse({ till: 'T1', extra: 'x' }).success).toBe(false);
    expect(paymentMetadataSchema.safeParse({ till: 'T1', cashierId: 'S1' }).success).toBe(false);
  });

  it('reads the till back from echoed metadata, or null when it is not there or not ours', () => {
    expect(tillOf({ till: 'TBACK02', tillName: 'Back room', other: 1 })).toEqual({ id: 'TBACK02', name: 'Back room' });
    for (const m of [null, { till: 'TBACK02' }, { tillName: 'Back room' }, { till: 'TBACK02', tillName: 'x'.repeat(41) }, 'TBACK02']) {
      expect(tillOf(m)).toBeNull();
    }
  });
});

describe('till names from results', () => {
  let db: Db;
  let close: () => void;
  beforeEach(() => {
    ({ db, close } = openTempTillDb('momo-till-names-'));
  });
  afterEach(() => close());

  let n = 0;
  const result = (till: string, metadata: unknown, completedAt: string) => {
    n += 1;
    return transactionSchema.parse(
      sandboxSuccessTransaction({
        reference: `TXN_${String(n).padStart(26, '0')}`,
        clientReference: `${till}.01JD${String(n).padStart(22, '0')}`,
        metadata,
        completedAt,
      }),
    );
  };
  const byTill = () => new Takings(db).report('test', '2026-11-21', '2026-11-21', 'Africa/Accra').byTill.map((t) => [t.tillId, t.tillName]);

  it('names each till as its newest result did; a name for another till, or none, changes nothing', () => {
    const store = new TransactionsStore(db, 'Africa/Accra');
    store.insert('test', result('TBACK02', { till: 'TBACK02', tillName: 'Back room' }, '2026-11-21T10:00:00Z'), 1, 0);
    store.insert('test', result('TKIOSK3', { till: 'TKIOSK3' }, '2026-11-21T10:00:00Z'), 2, 0); // an older till: no name
    expect(byTill()).toEqual([
      ['TBACK02', 'Back room'],
      ['TKIOSK3', null],
    ]);
    store.insert('test', result('TBACK02', { till: 'TBACK02', tillName: 'Back counter' }, '2026-11-21T12:00:00Z'), 3, 0); // renamed
    store.insert('test', result('TBACK02', { till: 'TBACK02', tillName: 'Old name' }, '2026-11-21T11:00:00Z'), 4, 0); // arrives late
    store.insert('test', result('TKIOSK3', { till: 'TBACK02', tillName: 'Kiosk?' }, '2026-11-21T13:00:00Z'), 5, 0); // names another till
    expect(byTill()).toEqual([
      ['TBACK02', 'Back counter'],
      ['TKIOSK3', null],
    ]);
  });

  it("names a till from the service's result that replaces a hand settlement, as from any result", () => {
    const store = new TransactionsStore(db, 'Africa/Accra');
    const tx = result('TFRONT1', { till: 'TFRONT1', tillName: 'Front counter' }, '2026-11-21T10:00:00Z');
    const hand = `NOT-PAID#${tx.clientReference}`;
    store.insertByHand(
      {
        ...{ environment: 'test', reference: hand, client_reference: tx.clientReference, status: 'FAILED', amount: 500, fee: 0, net: 0 },
        ...{ msisdn: '233241234567', network: 'MTN', description: '', till_id: 'TFRONT1', staff_id: null, staff_name: null },
        completed_at: Date.parse('2026-11-21T09:00:00Z'),
      },
      0,
    );
    expect(byTill()).toEqual([['TFRONT1', null]]);
    store.replaceHandRow('test', hand, tx, 1, 0, false);
    expect(byTill()).toEqual([['TFRONT1', 'Front counter']]);
  });

  it('stores outside text without control or bidi characters: the till name, the cashier and the description, and exports none (issue 20 item 11)', () => {
    const store = new TransactionsStore(db, 'Africa/Accra');
    const evil = { till: 'TBACK02', tillName: '<b>Front</b>\u202e1 lliT', cashierId: 'S9', cashier: 'Ko\u202efi\u0000' };
    const tx = result('TBACK02', evil, '2026-11-21T10:00:00Z');
    store.insert('test', { ...tx, description: 'Milo 400g\u001b@\u0000 \u2014 1 tin\u2066' }, 1, 0);
    expect(byTill()).toEqual([['TBACK02', '<b>Front</b>1 lliT']]);
    const row = db.prepare('SELECT description, staff_name FROM transactions').get() as { description: string; staff_name: string };
    expect(row).toEqual({ description: 'Milo 400g@ \u2014 1 tin', staff_name: 'Kofi' });
    const { csv } = new Takings(db).exportCsv('test', '2026-11-21', '2026-11-21');
    // eslint-disable-next-line no-control-regex -- looking for control characters
    expect(csv).not.toMatch(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  describe("another till's TEST payments by the network its cashier charged", () => {
    it('count under it in Takings and the X report, as this till’s own do: the network travels in the echoed metadata', () => {
      // The sandbox answers "SANDBOX" for every TEST customer; only the till that started a payment has its network
      // in its payments table, so the network must come back with the result for the shop's other tills.
      const metadata = paymentMetadata({ id: 'TBACK02', name: 'Back room' }, null, 'TELECEL');
      expect(metadata).toEqual({ till: 'TBACK02', tillName: 'Back room', network: 'TELECEL' });
      const tx = transactionSchema.parse(
        sandboxSuccessTransaction({
          reference: 'TXN_01JD3Q8Z4W2Y7K5M9N0P1R2S3T',
          clientReference: 'TBACK02.01JD3Q8Z4W2Y7K5M9N0P1R2S3T',
          metadata,
          completedAt: '2026-11-21T10:00:00Z',
        }),
      );
      new TransactionsStore(db, 'Africa/Accra').insert('test', tx, 1, 0);
      const takings = new Takings(db).report('test', '2026-11-21', '2026-11-21', 'Africa/Accra');
      expect(takings.byNetwork.map((n) => [n.network, n.count])).toEqual([['TELECEL', 1]]);
      const x = new DayClose(
        db,
        () => Date.parse('2026-11-21T12:00:00Z'),
        () => ({ id: 'TFRONT1', name: 'Front' }),
      ).xReport('test', 'Africa/Accra');
      expect(x.byNetwork.map((n) => [n.network, n.count])).toEqual([['TELECEL', 1]]);
    });

    it('an echoed network that is none of the networks changes nothing: the result stays under the service’s', () => {
      const tx = transactionSchema.parse(
        sandboxSuccessTransaction({
          clientReference: 'TBACK02.01JD3Q8Z4W2Y7K5M9N0P1R2S3T',
          metadata: { till: 'TBACK02', network: 'VODA<b>' },
        }),
      );
      new TransactionsStore(db, 'Africa/Accra').insert('test', tx, 1, 0);
      expect(new Takings(db).report('test', '2026-11-21', '2026-11-21', 'Africa/Accra').byNetwork.map((n) => n.network)).toEqual([
        'SANDBOX',
      ]);
    });
  });
});
