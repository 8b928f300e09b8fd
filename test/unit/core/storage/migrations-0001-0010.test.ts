/**
 * The till's migrations 1 to 10 (payments, takings, people, shifts, settle by hand), one test or more each, on a
 * database at the schema a user of the version before has (opening and the history: migrations.test.ts; the
 * later ones: migrations-0011-0018.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { type Db } from '../../../../electron/core/storage/database.js';
import { MIGRATIONS } from '../../../../electron/core/storage/migrations/index.js';
import { insertRow, migrateTo } from '../../../support/migrations.js';
import { paymentRow } from '../../../support/payment-rows.js';
import { isStrict, tables, tillDatabases, transaction, version } from '../../../support/till-migrations.js';

const { tillAt } = tillDatabases();

/** Puts in payment p1 with only the columns schema 7 has (the columns later migrations add keep their defaults). */
function insertPaymentV7(db: Db, state: string): void {
  db.prepare(
    `INSERT INTO payments (id, request_id, merchant_ref, environment, state, amount, msisdn, msisdn_rev, network, description,
       request_body, till_id, created_at, updated_at) VALUES ('p1', 'r1', 'T1.x', 'test', ?, 100, 'm', 'm', 'MTN', '', '{}', 'T1', 1, 1)`,
  ).run(state);
}

describe('migration 1: payments and the relay cursor', () => {
  it('creates STRICT tables with the state check and unique request id and merchantRef', () => {
    const db = tillAt(1);
    expect(tables(db)).toEqual(['payments', 'relay_cursor']);
    expect(isStrict(db, 'payments')).toBe(true);
    insertRow(db, 'payments', paymentRow('a', { merchant_ref: 'a' }));
    expect(() => insertRow(db, 'payments', { ...paymentRow('b'), state: 'pending' })).toThrow(/CHECK constraint/);
    expect(() => insertRow(db, 'payments', paymentRow('c', { merchant_ref: 'a' }))).toThrow(/UNIQUE/);
    expect(() => db.prepare("UPDATE payments SET amount = '12.50 GHS' WHERE id = 'a'").run()).toThrow(
      /cannot store TEXT value in INTEGER column/,
    );
  });
});

describe('migration 2: the transaction copy and the daily rollup', () => {
  it('adds the tables on top of version 1 without touching payments', () => {
    const db = tillAt(1);
    insertRow(db, 'payments', paymentRow('p1', { environment: 'live', state: 'success' }));
    migrateTo(db, MIGRATIONS, 2);
    expect(version(db)).toBe(2);
    expect(tables(db)).toEqual(['daily_takings', 'payments', 'relay_cursor', 'transactions']);
    expect(isStrict(db, 'transactions') && isStrict(db, 'daily_takings')).toBe(true);
    expect((db.prepare('SELECT count(*) AS n FROM payments').get() as { n: number }).n).toBe(1);
    insertRow(db, 'transactions', transaction('TX1'));
    expect(() => insertRow(db, 'transactions', transaction('TX1'))).toThrow(/UNIQUE/);
  });
});

describe('migration 3: payment counts kept by triggers', () => {
  it('counts existing payments per environment at upgrade time, then follows inserts and deletes', () => {
    const db = tillAt(2);
    insertRow(db, 'payments', paymentRow('a'));
    insertRow(db, 'payments', paymentRow('b'));
    insertRow(db, 'payments', paymentRow('c', { environment: 'live' }));
    migrateTo(db, MIGRATIONS, 3);
    const counts = () =>
      Object.fromEntries(
        (db.prepare('SELECT environment, total FROM payment_counts').all() as Array<{ environment: string; total: number }>).map((r) => [
          r.environment,
          r.total,
        ]),
      );
    expect(counts()).toEqual({ test: 2, live: 1 });
    insertRow(db, 'payments', paymentRow('d', { environment: 'live' }));
    db.prepare("DELETE FROM payments WHERE id = 'a'").run();
    expect(counts()).toEqual({ test: 1, live: 2 });
  });
});

describe('migration 4: TEST takings by the network the cashier charged', () => {
  it("rebuilds the TEST rollup with this till's own sandbox results under their charged network; LIVE untouched", () => {
    const db = tillAt(3);
    insertRow(
      db,
      'payments',
      paymentRow('p1', { merchant_ref: 'T1.A', state: 'success', amount: 500, msisdn: '233201234567', network: 'TELECEL' }),
    );
    const tx = (environment: string, reference: string, client_reference: string, amount: number, network: string) =>
      insertRow(
        db,
        'transactions',
        transaction(reference, {
          environment,
          client_reference,
          amount,
          fee: 0,
          net: amount,
          network,
          till_id: 'T1',
          local_date: '2026-11-20',
        }),
      );
    tx('test', 'TX1', 'T1.A', 500, 'SANDBOX'); // ours: charged on TELECEL
    tx('test', 'TX2', 'T9.B', 300, 'SANDBOX'); // another till's: unknown network
    tx('live', 'TX3', 'T1.C', 700, 'MTN');
    const roll = (environment: string, network: string, gross: number) =>
      insertRow(db, 'daily_takings', {
        environment,
        local_date: '2026-11-20',
        till_id: 'T1',
        network,
        succeeded: 1,
        failed: 0,
        gross,
        fees: 0,
        net: gross,
      });
    roll('test', 'SANDBOX', 800);
    roll('live', 'MTN', 700);
    migrateTo(db, MIGRATIONS, 4);
    const rows = db.prepare('SELECT environment, network, succeeded, gross FROM daily_takings ORDER BY environment, network').all();
    expect(rows).toEqual([
      { environment: 'live', network: 'MTN', succeeded: 1, gross: 700 },
      { environment: 'test', network: 'SANDBOX', succeeded: 1, gross: 300 },
      { environment: 'test', network: 'TELECEL', succeeded: 1, gross: 500 },
    ]);
  });
});

describe('migration 5: merchantRef searched per environment', () => {
  it('adds an (environment, merchant_ref) index that a per-environment merchantRef range uses', () => {
    const db = tillAt(5);
    const plan = db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT id FROM payments WHERE environment = 'test' AND merchant_ref >= 'T1.' AND merchant_ref < 'T1.\uffff' ORDER BY merchant_ref DESC LIMIT 1000",
      )
      .all() as Array<{ detail: string }>;
    expect(plan.map((r) => r.detail).join(' | ')).toMatch(/payments_env_merchant_ref/);
  });
});

describe('migration 6: the relay log id with the cursor', () => {
  it('adds log_id (NULL) to existing cursors and keeps their sequence', () => {
    const db = tillAt(5);
    insertRow(db, 'relay_cursor', { environment: 'test', relay_url: 'http://127.0.0.1:1', last_seq: 42 });
    migrateTo(db, MIGRATIONS, 6);
    expect(db.prepare('SELECT environment, relay_url, last_seq, log_id FROM relay_cursor').all()).toEqual([
      { environment: 'test', relay_url: 'http://127.0.0.1:1', last_seq: 42, log_id: null },
    ]);
    db.prepare("UPDATE relay_cursor SET log_id = 'AbCdEfGhIjKlMnOpQrSt-_'").run();
  });
});

describe('migration 7: people, the PIN lock-out and the audit log', () => {
  it('allows one owner, keeps the lock-out on disk, and refuses to change or delete an audit row', () => {
    const db = tillAt(7);
    expect(['staff', 'pin_attempts', 'audit_log'].every((t) => isStrict(db, t))).toBe(true);
    const person = db.prepare("INSERT INTO staff (id, name, role, pin_hash, created_at, updated_at) VALUES (?, ?, ?, 'h', 1, 1)");
    person.run('a', 'Owner', 'owner');
    expect(() => person.run('b', 'Second owner', 'owner')).toThrow(/UNIQUE/);
    expect(() => person.run('c', 'Ama', 'boss')).toThrow(/CHECK/);
    db.prepare("INSERT INTO audit_log (at, action, detail) VALUES (1, 'sign_in', '')").run();
    expect(() => db.prepare("UPDATE audit_log SET detail = 'x'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
  });
});

describe('migration 8: who started each payment, and shifts', () => {
  it('adds the staff to existing payments as NULL, one open shift per person, and freezes a closed shift', () => {
    const v7 = tillAt(7);
    insertPaymentV7(v7, 'success');
    v7.prepare("INSERT INTO staff (id, name, role, pin_hash, created_at, updated_at) VALUES ('k', 'Kofi', 'cashier', 'h', 1, 1)").run();
    migrateTo(v7, MIGRATIONS, 8);
    const v8 = v7;
    expect(v8.prepare('SELECT staff_id, staff_name, shift_id FROM payments').get()).toEqual({
      staff_id: null,
      staff_name: null,
      shift_id: null,
    });
    const shift = v8.prepare("INSERT INTO shifts (id, staff_id, staff_name, opened_at) VALUES (?, 'k', 'Kofi', 1)");
    shift.run('s1');
    expect(() => shift.run('s2')).toThrow(/UNIQUE/);
    v8.prepare("UPDATE shifts SET closed_at = 2, closed_by = 'k', report = '{}' WHERE id = 's1'").run();
    expect(() => v8.prepare("UPDATE shifts SET report = '{\"gross\":1}' WHERE id = 's1'").run()).toThrow(/never changes/);
    shift.run('s2');
  });
});

describe('migration 9: till names', () => {
  it('adds an empty STRICT table of one name per till id', () => {
    const v8 = tillAt(8);
    migrateTo(v8, MIGRATIONS, 9);
    const name = v8.prepare('INSERT INTO till_names (till_id, name, seen_at) VALUES (?, ?, ?)');
    name.run('TBACK02', 'Back room', 1);
    expect(() => name.run('TBACK02', 'Back room', 2)).toThrow(/UNIQUE/);
    expect(() => name.run('TBACK03', 'Kiosk', 'soon')).toThrow(/cannot store TEXT value in INTEGER column/);
  });
});

describe("migration 10: settle by hand and the owner's alerts", () => {
  it('adds the hand settlement as NULL to existing payments, settled_by_hand 0 to existing transactions, and a STRICT alerts table', () => {
    const v9 = tillAt(9);
    insertPaymentV7(v9, 'awaiting_customer');
    insertRow(v9, 'transactions', transaction('TX_1'));
    migrateTo(v9, MIGRATIONS, 10);
    const v10 = v9;
    expect(
      v10
        .prepare('SELECT hand_outcome, hand_reference, hand_fee, hand_note, hand_by_id, hand_by_name, hand_at, hand_check FROM payments')
        .get(),
    ).toEqual({
      hand_outcome: null,
      hand_reference: null,
      hand_fee: null,
      hand_note: null,
      hand_by_id: null,
      hand_by_name: null,
      hand_at: null,
      hand_check: null,
    });
    expect(v10.prepare('SELECT settled_by_hand FROM transactions').get()).toEqual({ settled_by_hand: 0 });
    expect(() => v10.prepare('UPDATE transactions SET settled_by_hand = 2').run()).toThrow(/CHECK/);
    expect(() => v10.prepare("UPDATE payments SET hand_outcome = 'maybe'").run()).toThrow(/CHECK/);
    expect(() => v10.prepare("UPDATE payments SET hand_check = 'unsure'").run()).toThrow(/CHECK/);
    expect(isStrict(v10, 'alerts')).toBe(true);
    const alert = v10.prepare(
      "INSERT INTO alerts (kind, payment_id, environment, message, raised_at) VALUES ('hand_settlement_overridden', ?, 'test', 'm', 1)",
    );
    alert.run('p1');
    expect(() => alert.run('p1')).toThrow(/UNIQUE/);
    expect(() => alert.run('nope')).toThrow(/FOREIGN KEY/);
  });
});
