/**
 * The till's migration 20 (a charge's deadline: two more end states, send_until, may_have_reached), on a
 * database at the schema a user of the version before has, with their payments, alerts and receipt numbers.
 */
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../electron/core/storage/migrations/index.js';
import { insertRow, migrateTo } from '../../../support/migrations.js';
import { paymentRow } from '../../../support/payment-rows.js';
import { isStrict, tillDatabases } from '../../../support/till-migrations.js';

const { tillAt } = tillDatabases();

describe('migration 20: a charge has a deadline', () => {
  it('keeps every payment, alert, index and trigger; open ones get a past deadline, attempted ones may have reached the service', () => {
    const v19 = tillAt(19);
    insertRow(v19, 'payments', paymentRow('never', { state: 'created', created_at: 1_000 }));
    insertRow(v19, 'payments', { ...paymentRow('tried', { state: 'uncertain', created_at: 2_000 }), attempts: 3 });
    insertRow(v19, 'payments', { ...paymentRow('paid', { state: 'success', created_at: 3_000 }), attempts: 1, fee: 2, net: 98 });
    v19
      .prepare(
        "INSERT INTO alerts (kind, payment_id, environment, message, raised_at) VALUES ('hand_settlement_overridden', 'paid', 'test', 'm', 1)",
      )
      .run();
    const receipt = (v19.prepare("SELECT receipt_no FROM payments WHERE id = 'paid'").get() as { receipt_no: number }).receipt_no;
    const before = (
      v19.prepare("SELECT name FROM sqlite_master WHERE tbl_name = 'payments' AND type IN ('index', 'trigger') ORDER BY name").all() as {
        name: string;
      }[]
    ).map((r) => r.name);
    const counted = v19.prepare('SELECT environment, total FROM payment_counts ORDER BY environment').all();

    migrateTo(v19, MIGRATIONS, 20);
    const v20 = v19;
    expect(isStrict(v20, 'payments')).toBe(true);
    expect(v20.prepare('SELECT id, state, send_until, may_have_reached FROM payments ORDER BY id').all()).toEqual([
      { id: 'never', state: 'created', send_until: 61_000, may_have_reached: 0 },
      { id: 'paid', state: 'success', send_until: 63_000, may_have_reached: 0 },
      { id: 'tried', state: 'uncertain', send_until: 62_000, may_have_reached: 1 },
    ]);
    expect(v20.prepare("SELECT receipt_no FROM payments WHERE id = 'paid'").get()).toEqual({ receipt_no: receipt });
    expect(v20.prepare('SELECT payment_id FROM alerts').all()).toEqual([{ payment_id: 'paid' }]);
    expect(v20.pragma('foreign_key_check')).toEqual([]);
    const after = (
      v20.prepare("SELECT name FROM sqlite_master WHERE tbl_name = 'payments' AND type IN ('index', 'trigger') ORDER BY name").all() as {
        name: string;
      }[]
    ).map((r) => r.name);
    expect(after).toEqual(before);
    expect(v20.prepare('SELECT environment, total FROM payment_counts ORDER BY environment').all()).toEqual(counted);

    // The two new end states are allowed, a made-up one is not; the triggers still work on the new table.
    v20.prepare("UPDATE payments SET state = 'not_sent' WHERE id = 'never'").run();
    v20.prepare("UPDATE payments SET state = 'unconfirmed' WHERE id = 'tried'").run();
    expect(() => v20.prepare("UPDATE payments SET state = 'lost' WHERE id = 'never'").run()).toThrow(/CHECK/);
    expect(() => v20.prepare("UPDATE payments SET may_have_reached = 2 WHERE id = 'never'").run()).toThrow(/CHECK/);
    expect(() => v20.prepare("UPDATE payments SET receipt_no = 99 WHERE id = 'paid'").run()).toThrow(/a receipt number never changes/);
    v20.prepare("UPDATE payments SET state = 'success' WHERE id = 'tried'").run();
    expect(v20.prepare("SELECT receipt_no FROM payments WHERE id = 'tried'").get()).toEqual({ receipt_no: receipt + 1 });
    expect(() =>
      v20
        .prepare(
          "INSERT INTO alerts (kind, payment_id, environment, message, raised_at) VALUES ('hand_settlement_overridden', 'nope', 'test', 'm', 1)",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
  });
});
