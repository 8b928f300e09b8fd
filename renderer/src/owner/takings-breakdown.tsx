/** Totals split by network, till or cashier, as an accessible table. */
import type { TakingsTotals } from '../../../shared/ipc/contract';
import { ghs } from '../format';
import { TableHead } from '../components/table-head';

type Row = TakingsTotals & { key: string; label: string };

export function TakingsBreakdown({ title, rows, testId }: { title: string; rows: Row[]; testId: string }) {
  return (
    <table className="breakdown" data-testid={testId}>
      <caption>{title}</caption>
      <TableHead
        columns={[
          title.replace(/^By /, '').replace(/^./, (c) => c.toUpperCase()),
          ...['Payments', 'Paid', 'Gross', 'Fees', 'Net'].map((label) => ({ label, numeric: true })),
        ]}
      />
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
