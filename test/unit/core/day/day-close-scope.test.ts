/**
 * Whose figures a Z's are: every till receives every result of the shop, so two tills closing the same day make
 * two Z-0001s of the same results. Each says it is the shop's total as its till received them, on screen, on
 * paper and in the CSV, and a close warns of a Z closed earlier the same day here and of the other tills.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../../electron/core/storage/database.js';
import { DayClose } from '../../../../electron/core/day/day-close.js';
import { TransactionsStore } from '../../../../electron/core/takings/transactions-store.js';
import { closeWarningsOf, reportScopeOf } from '../../../../shared/ipc/contract.js';
import { buildDayReportDocument } from '../../../../shared/receipt/build-day-report.js';
import { DEFAULT_RECEIPT_SETTINGS } from '../../../../shared/receipt/receipt-settings.js';
import { openTempTillDb } from '../../../support/temp-till-db.js';
import { dayResult, merchantRef } from '../../../support/day-rows.js';

const TZ = 'Africa/Accra';
const T0 = Date.parse('2026-11-22T18:00:00Z');
const opened: Array<() => void> = [];
afterEach(() => opened.splice(0).forEach((close) => close()));

/** A till's own database, with the shop's results as the relay delivers them to every till. */
function till(id: string, name: string, clock: { now: number }) {
  const { db, close } = openTempTillDb('momo-day-scope-');
  opened.push(close);
  const store = new TransactionsStore(db, TZ);
  const result = (ref: string, tillId: string, tillName: string, amount: string) =>
    store.insert(
      'test',
      {
        ...dayResult(ref, {
          merchantRef: merchantRef(tillId, ref),
          amount,
          fee: '0.00',
          net: amount,
          completedAt: new Date(clock.now).toISOString(),
        }),
        metadata: { till: tillId, tillName },
      } as ReturnType<typeof dayResult>,
      null,
      clock.now,
    );
  return {
    db: db as Db,
    day: new DayClose(
      db,
      () => clock.now,
      () => ({ id, name }),
    ),
    result,
  };
}

const text = (doc: ReturnType<typeof buildDayReportDocument>) =>
  doc.blocks.flatMap((b) => ('text' in b && typeof b.text === 'string' ? [b.text] : 'label' in b ? [String(b.label)] : []));

describe("a Z of the shop's results, as one till received them", () => {
  it('two tills closing the same day each say whose copy their Z-0001 is, and name the other till', () => {
    const clock = { now: T0 };
    const front = till('TFRONT1', 'Front counter', clock);
    const back = till('TBACK02', 'Back room', clock);
    for (const t of [front, back]) {
      t.result('TXA', 'TFRONT1', 'Front counter', '100.00');
      t.result('TXB', 'TBACK02', 'Back room', '16.49');
    }
    const a = front.day.close('test', TZ, 0, null).report;
    const b = back.day.close('test', TZ, 0, null).report;
    // The same figures, the same number: only what each says of itself tells them apart.
    expect([a.label, b.label, a.totals.gross, b.totals.gross]).toEqual(['Z-0001', 'Z-0001', '116.49', '116.49']);
    expect(a.receivedBy).toEqual({ tillId: 'TFRONT1', tillName: 'Front counter' });
    expect(b.receivedBy).toEqual({ tillId: 'TBACK02', tillName: 'Back room' });
    expect(reportScopeOf(a, 'ignored')).toBe("Shop total, as received by Front counter — not to be added to other tills' Zs");
    expect(reportScopeOf(b, 'ignored')).toBe("Shop total, as received by Back room — not to be added to other tills' Zs");
    expect([a.otherTills, b.otherTills]).toEqual([['Back room'], ['Front counter']]);
    expect(closeWarningsOf(a, (iso) => iso)).toEqual([
      "Back room also receives these results: a Z closed there counts the same payments. Take the shop's day from one till's Z, never the sum.",
    ]);

    // On paper: the scope under the heading, and the other till's warning.
    const paper = text(buildDayReportDocument(a, DEFAULT_RECEIPT_SETTINGS, 'Front counter'));
    expect(paper).toContain("Shop total, as received by Front counter — not to be added to other tills' Zs");
    expect(paper.join('\n')).toMatch(/Back room also receives these results/);

    // In the CSV: two files that cannot be mistaken for one another, each saying whose figures it holds.
    const [csvA, csvB] = [front, back].map((t) => t.day.exportCsv('test', t.day.last('test')!.id));
    expect(csvA!.filename).toBe('momo-Z-0001-Front-counter-TEST-2026-11-22.csv');
    expect(csvB!.filename).toBe('momo-Z-0001-Back-room-TEST-2026-11-22.csv');
    expect(csvB!.csv).toContain(`\r\nscope,"Shop total, as received by Back room — not to be added to other tills' Zs",,,,,,\r\n`);
  });

  it('a till alone in its shop has no other till to warn of', () => {
    const clock = { now: T0 };
    const front = till('TFRONT1', 'Front counter', clock);
    front.result('TXA', 'TFRONT1', 'Front counter', '5.00');
    const x = front.day.xReport('test', TZ);
    expect([x.otherTills, x.earlierToday, closeWarningsOf(x, (iso) => iso)]).toEqual([[], null, []]);
  });

  it('warns at a second close the same local day at this till, not after midnight', () => {
    const clock = { now: T0 };
    const front = till('TFRONT1', 'Front counter', clock);
    front.result('TXA', 'TFRONT1', 'Front counter', '5.00');
    front.day.close('test', TZ, 0, { id: 'ama', name: 'Ama' });
    clock.now = T0 + 3 * 3_600_000; // 21:00 the same day in Accra
    front.result('TXB', 'TFRONT1', 'Front counter', '2.00');
    const x = front.day.xReport('test', TZ);
    expect(x.earlierToday).toEqual({ label: 'Z-0001', at: new Date(T0).toISOString(), closedBy: 'Ama' });
    expect(closeWarningsOf(x, () => '18:00')).toEqual([
      'Z-0001 was already closed at this till today, 18:00 by Ama: closing now counts only what arrived since.',
    ]);
    // The Z closed after it keeps the warning, in its own words.
    const z = front.day.close('test', TZ, 1, null).report;
    expect(closeWarningsOf(z, () => '18:00')[0]).toMatch(/^Z-0001 was already closed at this till today, 18:00 by Ama: this Z counts only/);
    expect(z.totals.gross).toBe('2.00');
    // Past midnight in the shop's time zone, the last close was another day's.
    clock.now = Date.parse('2026-11-23T00:00:01Z');
    expect(front.day.xReport('test', TZ).earlierToday).toBeNull();
    clock.now = Date.parse('2026-11-22T23:59:59Z');
    expect(front.day.xReport('test', TZ).earlierToday).toMatchObject({ label: 'Z-0002' });
  });
});
