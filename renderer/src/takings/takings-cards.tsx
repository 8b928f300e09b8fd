/** Today's figures at a glance. */
import { Fragment, type ReactNode } from 'react';
import type { TakingsTotals } from '../../../shared/ipc/contract';
import { ghs, percent } from '../format';
import './takings.css';

/**
 * A money figure that may wrap only between its groups ("GH₵" | "111," | "111.10"), never inside one: a
 * figure too wide for its card goes onto two lines whole rather than being cut to a wrong-looking amount.
 */
function money(pesewas: Parameters<typeof ghs>[0]): ReactNode {
  const parts = ghs(pesewas).split(/(?<=₵|,)/);
  return parts.map((part, i) => (
    <Fragment key={i}>
      {i > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}

export function TakingsCards({ totals, label, testPrefix }: { totals: TakingsTotals; label: string; testPrefix: string }) {
  const cards = [
    { id: 'gross', title: 'Gross', value: money(totals.gross) },
    { id: 'fees', title: 'Fees', value: money(totals.fees) },
    { id: 'net', title: 'Net', value: money(totals.net) },
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
