/**
 * The owner's alerts: something the owner must see on their screens until they acknowledge it (the one
 * kind, `hand_settlement_overridden`: a payment settled by hand whose late result from the service
 * disagreed and won). Raised once per payment and kind; acknowledging records when and by whom, and never
 * removes the row.
 */
import type { AlertView } from '../../../shared/ipc/contract.js';
import type { Environment } from '../../../shared/domain.js';
import type { Actor } from '../people/index.js';
import type { Db } from '../storage/index.js';
import { CoreError } from '../errors.js';

type AlertRow = {
  id: number;
  kind: AlertView['kind'];
  payment_id: string;
  environment: Environment;
  message: string;
  raised_at: number;
  acknowledged_at: number | null;
  acknowledged_by_name: string | null;
};

const view = (r: AlertRow): AlertView => ({
  id: r.id,
  kind: r.kind,
  paymentId: r.payment_id,
  environment: r.environment,
  message: r.message,
  raisedAt: new Date(r.raised_at).toISOString(),
  acknowledgedAt: r.acknowledged_at === null ? null : new Date(r.acknowledged_at).toISOString(),
  acknowledgedBy: r.acknowledged_by_name,
});

export class Alerts {
  private readonly stmts;

  constructor(
    db: Db,
    private readonly now: () => number,
    /** Told the number of open alerts whenever it changes (the core pushes it to the screens). */
    private readonly changed: (open: number) => void,
  ) {
    this.stmts = {
      raise: db.prepare(
        `INSERT INTO alerts (kind, payment_id, environment, message, raised_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (kind, payment_id) DO NOTHING`,
      ),
      open: db.prepare('SELECT * FROM alerts WHERE acknowledged_at IS NULL ORDER BY raised_at DESC, id DESC'),
      all: db.prepare('SELECT * FROM alerts ORDER BY raised_at DESC, id DESC LIMIT 200'),
      openCount: db.prepare('SELECT count(*) AS n FROM alerts WHERE acknowledged_at IS NULL'),
      get: db.prepare('SELECT * FROM alerts WHERE id = ?'),
      acknowledge: db.prepare(
        'UPDATE alerts SET acknowledged_at = ?, acknowledged_by_id = ?, acknowledged_by_name = ? WHERE id = ? AND acknowledged_at IS NULL',
      ),
    };
  }

  /** Run it in the transaction that made the alert true: a second raise for the same payment changes nothing. */
  raiseOverridden(paymentId: string, environment: Environment, message: string): boolean {
    const raised = this.stmts.raise.run('hand_settlement_overridden', paymentId, environment, message, this.now()).changes === 1;
    if (raised) this.changed(this.openCount());
    return raised;
  }

  list(all = false): AlertView[] {
    return ((all ? this.stmts.all : this.stmts.open).all() as AlertRow[]).map(view);
  }

  openCount(): number {
    return (this.stmts.openCount.get() as { n: number }).n;
  }

  /** Acknowledged once (`first`): a second acknowledgement answers the alert as the first one left it. */
  acknowledge(id: number, by: Actor): { alert: AlertView; first: boolean } {
    const first = this.stmts.acknowledge.run(this.now(), by?.id ?? null, by?.name ?? null, id).changes === 1;
    const row = this.stmts.get.get(id) as AlertRow | undefined;
    if (!row) throw new CoreError('NOT_FOUND', 'There is no such alert.');
    if (first) this.changed(this.openCount());
    return { alert: view(row), first };
  }
}
