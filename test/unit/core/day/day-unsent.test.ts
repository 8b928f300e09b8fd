/**
 * Payments that ended without the service's acknowledgement (not_sent: no prompt went out; unconfirmed: it may
 * have reached the service) are counted apart in the X and Z reports, their CSV and Takings: neither paid nor
 * failed, in none of the totals, in pesewas summed by the core, each by the instant it ended.
 */
import { describe, expect, it } from 'vitest';
import { Takings } from '../../../../electron/core/takings/takings.js';
import { dayTill } from '../../../support/day-till.js';

const TZ = 'Africa/Accra';
const T0 = Date.parse('2026-11-22T18:00:00Z');
const t = dayTill('momo-day-unsent-', TZ, T0);

/** One of this till's payments that ended `state` at `endedAt`, of `amount` pesewas. */
function ended(id: string, state: 'not_sent' | 'unconfirmed', amount: number, endedAt: number): void {
  t.started(id, endedAt - 60_000, { state, amount, updated_at: endedAt, staff_id: 's1', staff_name: 'Ama' });
}

describe('payments that ended without the service answering', () => {
  it('the X report counts them apart: not in the totals, the failures or the awaiting list', () => {
    t.result('TX_PAID', { amount: '20.00', fee: '0.20', net: '19.80' });
    ended('1', 'not_sent', 1_001, T0 - 5_000);
    ended('2', 'not_sent', 250, T0 - 4_000);
    ended('3', 'unconfirmed', 1_999, T0 - 3_000);
    const x = t.day.xReport('test', TZ);
    expect(x.totals).toMatchObject({ count: 1, succeeded: 1, failed: 0, gross: '20.00' });
    expect(x.failures).toEqual([]);
    expect(x.awaiting).toEqual([]);
    expect(x.unsent).toEqual({ notSent: { count: 2, amount: '12.51' }, unconfirmed: { count: 1, amount: '19.99' } });
    expect(x.unsentLines.map((l) => [l.state, l.amount, l.cashier])).toEqual([
      ['not_sent', '10.01', 'Ama'],
      ['not_sent', '2.50', 'Ama'],
      ['unconfirmed', '19.99', 'Ama'],
    ]);
  });

  it('a Z freezes them; the next report counts only those that ended after its close', () => {
    ended('1', 'not_sent', 500, T0 - 5_000);
    const z1 = t.day.close('test', TZ, 0, null).report;
    expect(z1.unsent.notSent).toEqual({ count: 1, amount: '5.00' });
    t.now = T0 + 60_000;
    ended('2', 'unconfirmed', 700, T0 + 30_000);
    const x = t.day.xReport('test', TZ);
    expect(x.unsent).toEqual({ notSent: { count: 0, amount: '0.00' }, unconfirmed: { count: 1, amount: '7.00' } });
    const { id } = t.day.close('test', TZ, 1, null);
    // The first Z as stored: its figures never change.
    expect(t.day.view('test', 1).report.unsent.notSent.count).toBe(1);
    const csv = t.day.exportCsv('test', id).csv;
    const rows = csv.split('\r\n').filter(Boolean);
    expect(rows.find((r) => r.includes('UNCONFIRMED'))).toMatch(/,UNCONFIRMED,7\.00,,,,,,,no,/);
    expect(rows).toContain('not counted,Not sent: no prompt went out,0,,,0.00,,');
    expect(rows).toContain('not counted,May have reached the service: counted when its result comes,1,,,7.00,,');
    expect(rows.find((r) => r.startsWith('total,'))).toMatch(/^total,Z-0002 TEST,0,0,0,0\.00,0\.00,0\.00$/);
  });

  it('a result that lands on an unconfirmed payment leaves the unsent count and is counted as paid', () => {
    ended('1', 'unconfirmed', 900, T0 - 5_000);
    t.repo.update('1', { state: 'success' }, T0 - 1_000, ['unconfirmed']);
    t.result('TX_LATE', { merchantRef: t.repo.get('1')!.merchant_ref, amount: '9.00', fee: '0.00', net: '9.00' });
    const x = t.day.xReport('test', TZ);
    expect(x.unsent.unconfirmed.count).toBe(0);
    expect(x.totals).toMatchObject({ succeeded: 1, gross: '9.00' });
  });

  it('Takings counts them apart, by the day they ended, for everyone or one cashier', () => {
    ended('1', 'not_sent', 1_000, Date.parse('2026-11-22T23:59:59Z'));
    ended('2', 'unconfirmed', 300, Date.parse('2026-11-23T00:00:00Z'));
    const takings = new Takings(t.db, () => t.now);
    const day = (date: string, who?: string | null) => takings.report('test', date, date, TZ, who).unsent;
    expect(day('2026-11-22')).toEqual({ notSent: { count: 1, amount: '10.00' }, unconfirmed: { count: 0, amount: '0.00' } });
    expect(day('2026-11-23')).toEqual({ notSent: { count: 0, amount: '0.00' }, unconfirmed: { count: 1, amount: '3.00' } });
    expect(day('2026-11-22', 'someone-else').notSent.count).toBe(0);
    expect(day('2026-11-22', 's1').notSent.count).toBe(1);
    const report = takings.report('test', '2026-11-22', '2026-11-23', TZ);
    expect(report.totals.count).toBe(0);
    expect(report.awaiting.count).toBe(0);
  });
});
