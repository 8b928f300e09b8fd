/** The one vocabulary: its named sets of payment states agree with each other and with the till's schema. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FINAL_STATES,
  isFinal,
  isNetwork,
  isOpen,
  isResendable,
  isUnsentEnd,
  NETWORKS,
  NOT_FINAL_STATES,
  OPEN_STATES,
  PAYMENT_STATES,
  RESENDABLE_STATES,
  SENDING_STATES,
  UNSENT_END_STATES,
  WIRE_NETWORKS,
} from '../../../shared/domain.js';
import { sqlList } from '../../../shared/sql-list.js';
import { openDatabase } from '../../../electron/core/storage/database.js';

describe('payment state sets', () => {
  it('splits every state into open, final, rejected or ended unsent, once', () => {
    expect([...OPEN_STATES, ...FINAL_STATES, 'rejected', ...UNSENT_END_STATES].sort()).toEqual([...PAYMENT_STATES].sort());
    // A result from the relay still lands on a payment that ended unsent: one that may have reached the service.
    expect(NOT_FINAL_STATES).toEqual([...OPEN_STATES, 'rejected', ...UNSENT_END_STATES]);
    for (const state of UNSENT_END_STATES)
      expect([isOpen(state), isFinal(state), isResendable(state), isUnsentEnd(state)]).toEqual([false, false, false, true]);
  });

  it('resends only open payments, and sends one at a time from the resendable ones', () => {
    for (const state of RESENDABLE_STATES) expect(isOpen(state)).toBe(true);
    for (const state of SENDING_STATES) expect(isResendable(state)).toBe(true);
    expect(isResendable('awaiting_customer')).toBe(false);
  });

  it('answers membership for each state', () => {
    expect(PAYMENT_STATES.filter(isFinal)).toEqual(['success', 'failed']);
    expect(PAYMENT_STATES.filter(isOpen)).toEqual([...OPEN_STATES]);
  });
});

describe('networks', () => {
  it('knows the three networks, and SANDBOX only on the wire', () => {
    expect(NETWORKS.every(isNetwork)).toBe(true);
    expect(isNetwork('SANDBOX')).toBe(false);
    expect(isNetwork('mtn')).toBe(false);
    expect(WIRE_NETWORKS).toEqual([...NETWORKS, 'SANDBOX']);
  });
});

describe('sqlList', () => {
  it('writes string literals for IN (…), quotes doubled', () => {
    expect(sqlList(['created', 'submitting'])).toBe("'created', 'submitting'");
    expect(sqlList(["o'clock"])).toBe("'o''clock'");
  });
});

it("the till database's state check accepts exactly the vocabulary's states", () => {
  const dir = mkdtempSync(join(tmpdir(), 'momo-domain-'));
  const db = openDatabase(join(dir, 'till.db'));
  try {
    const insert = db.prepare(
      `INSERT INTO payments (id, request_id, merchant_ref, environment, state, amount, msisdn, msisdn_rev, network, description, request_body, till_id, created_at, updated_at)
       VALUES (?, ?, ?, 'test', ?, 100, '233241234567', '765432142332', 'MTN', '', '{}', 'T1', 1, 1)`,
    );
    for (const state of PAYMENT_STATES) expect(() => insert.run(state, `r-${state}`, `m-${state}`, state)).not.toThrow();
    expect(() => insert.run('x', 'r-x', 'm-x', 'pending')).toThrow(/CHECK constraint/);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
