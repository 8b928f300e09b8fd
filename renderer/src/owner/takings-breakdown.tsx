/** Totals split by network or by till, as an accessible table. */
import type { TakingsTotals } from '../../../shared/ipc/contract';
import { ghs } from '../format';

type Row = TakingsTotals & { key: string; label: string };

export function TakingsBreakdown({ title, rows, testId }: { title: string; rows: Row[]; testId: string }) {
  return (
    <table className="breakdown" data-testid={testId}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">{title.replace(/^By /, '').replace(/^./, (c) => c.toUpperCase())}</th>
          <th scope="col" className="num">
            Payments
          </th>
          <th scope="col" className="num">
            Paid
          </th>
          <th scope="col" className="num">
            Gross
          </th>
          <th scope="col" className="num">
            Fees
          </th>
          <th scope="col" className="num">
            Net
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={6} className="muted">
              No payments in this range.
            </td>
          </tr>
        ) : (
          rows.map((r) => (
            <tr key={r.key}>
              <th scope="row">{r.label}</th>
              <td className="num">{r.count}</td>
              <td className="num">{r.succeeded}</td>
              <td className="num">{ghs(r.gross)}</td>
              <td className="num">{ghs(r.fees)}</td>
              <td className="num">{ghs(r.net)}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
