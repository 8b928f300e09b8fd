/** store/owner-summary.ts: the owner's summary row of one transaction, worked out in Node for both stores. */
import { describe, expect, it } from 'vitest';
import { ownerSummaryRow, summaryOf, summaryPesewas, zoned } from '../../../../relay/store/index.js';

const HOUR = 3_600_000;
const at = (iso: string) => Math.floor(Date.parse(iso) / HOUR);

describe("the owner's summary row", () => {
  it('reads money from its exact two-decimal text, never through a float, and nothing else', () => {
    expect(summaryPesewas('0.07')).toBe(7);
    expect(summaryPesewas('1557.50')).toBe(155_750);
    expect(summaryPesewas('0.29')).toBe(29); // 0.29 * 100 is 28.999999999999996 in floating point
    expect(summaryPesewas('9999999999999.99')).toBe(999_999_999_999_999);
    for (const bad of ['12.5', '12.345', '-1.00', '1e3', ' 1.00', '1.00 ', '', '.50', '14000000000000.00']) {
      expect(summaryPesewas(bad)).toBe(0);
    }
    expect(summaryPesewas(12.5)).toBe(0);
    // A JSON number is not money text, even one that reads like an amount.
    expect(summaryPesewas(1234.56)).toBe(0);
    expect(summaryPesewas(null)).toBe(0);
  });

  it('counts SUCCESS with its money, FAILED as a failure without money, anything else as nothing', () => {
    const tx = { amount: '10.00', fee: '0.20', net: '9.80', completedAt: '2026-11-21T10:05:00.000Z' };
    expect(ownerSummaryRow({ ...tx, status: 'SUCCESS' }, '')).toMatchObject({ succeeded: 1, failed: 0, gross: 1000, fees: 20, net: 980 });
    expect(ownerSummaryRow({ ...tx, status: 'FAILED' }, '')).toMatchObject({ succeeded: 0, failed: 1, gross: 0, fees: 0, net: 0 });
    expect(ownerSummaryRow({ ...tx, status: 'PENDING' }, '')).toMatchObject({ succeeded: 0, failed: 0, gross: 0, fees: 0, net: 0 });
  });

  it('takes the hour of completedAt in UTC whatever its offset, else of the receipt, else of now', () => {
    const received = '2026-11-21T12:30:00.000Z';
    expect(ownerSummaryRow({ completedAt: '2026-11-21T10:59:59.999Z' }, received).hour).toBe(at('2026-11-21T10:00:00Z'));
    expect(ownerSummaryRow({ completedAt: '2026-11-21T11:15:00+02:00' }, received).hour).toBe(at('2026-11-21T09:00:00Z'));
    expect(ownerSummaryRow({ completedAt: '2026-11-21T23:59:59.999-05:30' }, received).hour).toBe(at('2026-11-22T05:00:00Z'));
    // No zone: UTC, as SQLite reads it, not this machine's local time.
    expect(ownerSummaryRow({ completedAt: '2026-11-21T10:15:00' }, received).hour).toBe(at('2026-11-21T10:00:00Z'));
    expect(ownerSummaryRow({ completedAt: 'yesterday' }, received).hour).toBe(at(received));
    expect(ownerSummaryRow({ completedAt: '2026-11-21T11:15:00+0200' }, received).hour).toBe(at('2026-11-21T09:00:00Z'));
    // Only an ISO 8601 text is read (as the SQL did): not another format Date.parse happens to take, not an
    // extended year, not a date that does not exist, not a list holding a time.
    for (const odd of ['Sat, 21 Nov 2026 10:05:00 GMT', '+012026-11-21T10:05:00.000Z', '2026-13-45T10:00:00Z', ['2026-11-21T10:05:00Z']]) {
      expect(ownerSummaryRow({ completedAt: odd }, received).hour, JSON.stringify(odd)).toBe(at(received));
    }
    expect(ownerSummaryRow({}, 'not a time', Date.parse('2026-01-02T03:04:05Z')).hour).toBe(at('2026-01-02T03:00:00Z'));
  });

  it('gives a time without a zone the UTC zone, and leaves any other as it is', () => {
    expect(zoned('2026-11-21T10:15:00')).toBe('2026-11-21T10:15:00Z');
    expect(zoned('2026-11-21T10:15:00.123')).toBe('2026-11-21T10:15:00.123Z');
    for (const given of [
      '2026-11-21T10:15:00Z',
      '2026-11-21T10:15:00z',
      '2026-11-21T10:15:00+02:00',
      '2026-11-21T10:15:00+0200',
      '2026-11-21T10:15:00-05:30',
      '2026-11-21T10:15:00+02',
    ]) {
      expect(zoned(given)).toBe(given);
    }
  });

  // Vitest's forked workers take a new TZ at once; a worker thread (Stryker's runner) keeps its own.
  const zoneSwitches = (() => {
    const zone = process.env.TZ;
    process.env.TZ = 'Africa/Lagos';
    const switched = new Date(Date.parse('2026-11-21T10:15:00')).getUTCHours() === 9;
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
    return switched;
  })();
  it.skipIf(!zoneSwitches)(
    `reads a time without a zone as UTC on a relay whose machine runs in another time zone${zoneSwitches ? '' : ' (skipped: this worker cannot change its time zone)'}`,
    () => {
      const zone = process.env.TZ;
      process.env.TZ = 'Africa/Lagos'; // UTC+1 all year: a local reading would be an hour off
      try {
        expect(ownerSummaryRow({ completedAt: '2026-11-21T10:15:00' }, '').hour).toBe(at('2026-11-21T10:00:00Z'));
        expect(ownerSummaryRow({ completedAt: '2026-11-21T10:15:00+01:00' }, '').hour).toBe(at('2026-11-21T09:00:00Z'));
      } finally {
        if (zone === undefined) delete process.env.TZ;
        else process.env.TZ = zone;
      }
    },
  );

  it('takes till, cashier and network as bounded text (counted in characters), and nothing that is not text', () => {
    const long = '😀'.repeat(70);
    const row = ownerSummaryRow(
      { customer: { network: 'N'.repeat(40) }, metadata: { till: long, tillName: long, cashierId: 7, cashier: null } },
      '',
    );
    expect(row.tillId).toBe('😀'.repeat(64));
    expect(row.tillName).toBe('😀'.repeat(40));
    expect(row.cashierId).toBe('');
    expect(row.cashierName).toBe('');
    expect(row.network).toBe('N'.repeat(32));
    expect(ownerSummaryRow({ metadata: ['T1'], customer: null }, '')).toMatchObject({ tillId: '', network: '' });
    expect(ownerSummaryRow(null, '')).toMatchObject({ tillId: '', succeeded: 0 });
  });

  it("uses the receiver's row, else the delivery's JSON, and skips JSON that does not parse", () => {
    const base = {
      reference: 'R',
      clientReference: null,
      environment: 'live' as const,
      keyId: 'pk_live_x',
      receivedAt: '2026-11-21T10:00:00.000Z',
      webhookCreatedAt: '2026-11-21T10:00:00.000Z',
      timestamp: 1,
      arrivedAt: 0,
    };
    const given = ownerSummaryRow({ status: 'FAILED' }, base.receivedAt);
    expect(summaryOf({ ...base, transactionJson: '{"status":"SUCCESS","amount":"1.00"}', summary: given })).toBe(given);
    expect(summaryOf({ ...base, transactionJson: '{"status":"SUCCESS","amount":"1.00"}' })).toMatchObject({ succeeded: 1, gross: 100 });
    expect(summaryOf({ ...base, transactionJson: '{not json' })).toBeNull();
  });
});
