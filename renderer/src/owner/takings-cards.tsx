/** Today's figures at a glance. */
import type { TakingsTotals } from '../../../shared/ipc/contract';
import { ghs, percent } from '../format';

export function TakingsCards({ totals, label, testPrefix }: { totals: TakingsTotals; label: string; testPrefix: string }) {
  const cards = [
    { id: 'gross', title: 'Gross', value: ghs(totals.gross) },
    { id: 'fees', title: 'Fees', value: ghs(totals.fees) },
    { id: 'net', title: 'Net', value: ghs(totals.net) },
    { id: 'count', title: 'Paid / payments', value: `${totals.succeeded} / ${totals.count}` },
    { id: 'rate', title: 'Success rate', value: percent(totals.succeeded, totals.count) },
  ];
  return (
    <section aria-label={label} className="cards">
      {cards.map((c) => (
        <div key={c.id} className="card">
          <h3 className="card-title">{c.title}</h3>
          <p className="card-value" data-testid={`${testPrefix}-${c.id}`}>
            {c.value}
          </p>
        </div>
      ))}
    </section>
  );
}
