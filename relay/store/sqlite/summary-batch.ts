/**
 * The owner's summary rows of one group commit, added up per row key (environment, hour, till, cashier,
 * network) before they are written: one upsert per key instead of one per event (a shop's group shares
 * one or a few keys). The result is the one the upserts one by one give: counts and money add up, and
 * a name is the last non-empty one in commit order (SUMMARY_UPSERT keeps the stored name for ''). Sums
 * stay exact: a row that would take a sum past Number.MAX_SAFE_INTEGER is written on its own and
 * SQLite adds it (64-bit integers).
 */
import type Database from 'better-sqlite3';
import type { Environment } from '../../../shared/domain.js';
import type { OwnerSummaryRow } from '../index.js';

type Entry = OwnerSummaryRow & { environment: Environment };

export class SummaryBatch {
  private readonly byKey = new Map<string, Entry>();
  private readonly apart: Entry[] = [];

  add(environment: Environment, s: OwnerSummaryRow): void {
    const key = JSON.stringify([environment, s.hour, s.tillId, s.cashierId, s.network]);
    const e = this.byKey.get(key);
    if (!e) {
      this.byKey.set(key, { ...s, environment });
      return;
    }
    const gross = e.gross + s.gross;
    const fees = e.fees + s.fees;
    const net = e.net + s.net;
    if (!Number.isSafeInteger(gross) || !Number.isSafeInteger(fees) || !Number.isSafeInteger(net)) {
      this.apart.push({ ...s, environment });
      return;
    }
    e.succeeded += s.succeeded;
    e.failed += s.failed;
    e.gross = gross;
    e.fees = fees;
    e.net = net;
    if (s.tillName !== '') e.tillName = s.tillName;
    if (s.cashierName !== '') e.cashierName = s.cashierName;
  }

  /** Upserts every row (`upsert`: SUMMARY_INSERT … SUMMARY_UPSERT with its 12 values). */
  writeTo(upsert: Database.Statement): void {
    for (const e of [...this.byKey.values(), ...this.apart]) {
      upsert.run(
        e.environment,
        e.hour,
        e.tillId,
        e.tillName,
        e.cashierId,
        e.cashierName,
        e.network,
        e.succeeded,
        e.failed,
        e.gross,
        e.fees,
        e.net,
      );
    }
  }
}
