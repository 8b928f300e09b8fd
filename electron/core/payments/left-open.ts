/**
 * The payments the till had open when it last stopped (a crash, the app closed mid-sale), taken once as the
 * core starts, before the relay's catch-up or a resend can land anything on them. Whatever has happened to
 * them since (a result that came while the till was down, starting or locked; sending that ended at its
 * deadline) is told to whoever signs in, as nobody was there to see it arrive.
 */
import type { PaymentState } from '../../../shared/domain.js';
import type { PaymentRow, PaymentsRepo } from './payments-repo.js';

export class LeftOpen {
  private readonly atStart: ReadonlyMap<string, PaymentState>;

  constructor(private readonly repo: Pick<PaymentsRepo, 'openEverywhere' | 'get'>) {
    this.atStart = new Map(repo.openEverywhere().map((row) => [row.id, row.state]));
  }

  /** Those whose state has changed since the start, each as it is now (newest first). */
  changed(): PaymentRow[] {
    const out: PaymentRow[] = [];
    for (const [id, state] of this.atStart) {
      const row = this.repo.get(id);
      if (row && row.state !== state) out.push(row);
    }
    return out;
  }
}
