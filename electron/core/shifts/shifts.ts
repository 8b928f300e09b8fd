/**
 * Shifts: one open shift per person, opened when they sign in (with staff configured) and closed when
 * they sign out or someone closes it. A shift's report is computed from this till's payments started in
 * it; when the shift closes the report is stored with it and never changes (a trigger refuses it).
 * Like every figure of the till, a report is of one environment: LIVE when the shift took any LIVE payment
 * (real money comes first), else TEST; the other environment's payments are only counted apart.
 */
import { ulid } from 'ulid';
import { formatAmount } from '../../../shared/money.js';
import { NO_UNSENT, type ShiftReport, type ShiftSummary } from '../../../shared/ipc/contract.js';
import type { Db } from '../storage/index.js';
import { CoreError } from '../errors.js';
import { isOpen, type Environment } from '../../../shared/domain.js';
import { toPaymentViewAt, type PaymentRow } from '../payments/index.js';
import type { AuditLog } from '../people/index.js';
import type { StaffRepo } from '../people/index.js';
import type { Person } from '../people/index.js';

type ShiftRow = {
  id: string;
  staff_id: string;
  staff_name: string;
  opened_at: number;
  closed_at: number | null;
  closed_by: string | null;
  report: string | null;
};

type Sums = { count: number; succeeded: number; failed: number; gross: number; fees: number; net: number };
const zero = (): Sums => ({ count: 0, succeeded: 0, failed: 0, gross: 0, fees: 0, net: 0 });
const view = (s: Sums) => ({ ...s, gross: formatAmount(s.gross), fees: formatAmount(s.fees), net: formatAmount(s.net) });

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export class Shifts {
  private readonly stmts;

  constructor(
    db: Db,
    private readonly now: () => number,
    /** The till's active environment: a shift's report before any payment is of this one. */
    private readonly active: () => Environment,
  ) {
    this.stmts = {
      insert: db.prepare('INSERT INTO shifts (id, staff_id, staff_name, opened_at) VALUES (?, ?, ?, ?)'),
      byId: db.prepare('SELECT * FROM shifts WHERE id = ?'),
      openOf: db.prepare('SELECT * FROM shifts WHERE staff_id = ? AND closed_at IS NULL'),
      close: db.prepare('UPDATE shifts SET closed_at = ?, closed_by = ?, report = ? WHERE id = ? AND closed_at IS NULL'),
      list: db.prepare('SELECT * FROM shifts ORDER BY opened_at DESC LIMIT 100'),
      listOf: db.prepare('SELECT * FROM shifts WHERE staff_id = ? ORDER BY opened_at DESC LIMIT 100'),
      payments: db.prepare('SELECT * FROM payments WHERE shift_id = ? ORDER BY created_at'),
    };
  }

  /** The person's open shift, opened now if they had none. Returns it and whether it is new. */
  openFor(person: Person): { id: string; opened: boolean } {
    const open = this.stmts.openOf.get(person.id) as ShiftRow | undefined;
    if (open) return { id: open.id, opened: false };
    const at = this.now();
    const id = ulid(at);
    this.stmts.insert.run(id, person.id, person.name, at);
    return { id, opened: true };
  }

  openOf(staffId: string): string | null {
    return (this.stmts.openOf.get(staffId) as ShiftRow | undefined)?.id ?? null;
  }

  get(id: string): ShiftRow | null {
    return (this.stmts.byId.get(id) as ShiftRow | undefined) ?? null;
  }

  /** Closes a shift, storing its report as it stands now. */
  close(id: string, by: Person): ShiftReport {
    const row = this.get(id);
    if (!row) throw new CoreError('NOT_FOUND', 'There is no such shift.');
    if (row.closed_at !== null) return this.report(row);
    const report = this.report({ ...row, closed_at: this.now(), closed_by: by.name });
    this.stmts.close.run(this.now(), by.name, JSON.stringify(report), id);
    return this.report(this.get(id) as ShiftRow);
  }

  /** The newest 100 shifts (of one person), each with its count, net and payments awaiting a result. */
  list(staffId?: string): ShiftSummary[] {
    const rows = (staffId ? this.stmts.listOf.all(staffId) : this.stmts.list.all()) as ShiftRow[];
    return rows.map((r) => {
      const { id, staffId, staffName, openedAt, closedAt, environment, totals, pending } = this.report(r);
      return { id, staffId, staffName, openedAt, closedAt, environment, count: totals.count, net: totals.net, pending: pending.length };
    });
  }

  /** A closed shift's stored report, or an open shift's report as of now. */
  report(row: ShiftRow): ShiftReport {
    if (row.report) return { unsent: NO_UNSENT, ...(JSON.parse(row.report) as Partial<ShiftReport>) } as ShiftReport;
    const started = this.stmts.payments.all(row.id) as PaymentRow[];
    const environment: Environment = started.some((p) => p.environment === 'live') ? 'live' : (started[0]?.environment ?? this.active());
    const payments = started.filter((p) => p.environment === environment);
    const all = zero();
    const byNetwork = new Map<string, Sums>();
    const pending: PaymentRow[] = [];
    // Neither paid nor failed: counted apart, in pesewas until the wire's amounts.
    const unsent = { not_sent: { count: 0, amount: 0 }, unconfirmed: { count: 0, amount: 0 } };
    for (const p of payments) {
      if (isOpen(p.state)) {
        pending.push(p);
        continue;
      }
      if (p.state === 'not_sent' || p.state === 'unconfirmed') {
        unsent[p.state].count += 1;
        unsent[p.state].amount += p.amount;
        continue;
      }
      if (p.state !== 'success' && p.state !== 'failed') continue; // refused before anything was created
      let sums = byNetwork.get(p.network);
      if (!sums) byNetwork.set(p.network, (sums = zero()));
      for (const s of [all, sums]) {
        s.count += 1;
        if (p.state === 'success') {
          s.succeeded += 1;
          s.gross += p.amount;
          s.fees += p.fee ?? 0;
          s.net += p.net ?? 0;
        } else s.failed += 1;
      }
    }
    return {
      id: row.id,
      staffId: row.staff_id,
      staffName: row.staff_name,
      openedAt: iso(row.opened_at) as string,
      closedAt: iso(row.closed_at),
      closedBy: row.closed_by,
      environment,
      otherEnvironment: started.length - payments.length,
      totals: view(all),
      byNetwork: [...byNetwork].sort(([a], [b]) => a.localeCompare(b)).map(([network, s]) => ({ network, ...view(s) })),
      // Overdue as of now, or as of the close for a report being stored.
      pending: pending.map((p) => toPaymentViewAt(p, row.closed_at ?? this.now())),
      unsent: {
        notSent: { count: unsent.not_sent.count, amount: formatAmount(unsent.not_sent.amount) },
        unconfirmed: { count: unsent.unconfirmed.count, amount: formatAmount(unsent.unconfirmed.amount) },
      },
    };
  }
}

/** With staff, signing in opens the person's shift (if none is open) and signing out closes it. */
export function shiftFollower(staff: StaffRepo, shifts: Shifts, audit: AuditLog) {
  return (reason: string, person: Person | null, previous: Person | null): void => {
    if (reason === 'sign-in' && person && staff.hasStaff() && shifts.openFor(person).opened) audit.record(person, 'shift_open');
    const open = reason === 'sign-out' && previous ? shifts.openOf(previous.id) : null;
    if (open && previous) {
      shifts.close(open, previous);
      audit.record(previous, 'shift_close', `${previous.name}'s shift, at sign-out`);
    }
  };
}
