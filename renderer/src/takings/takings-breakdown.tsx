/** Totals split by network, till or cashier, as an accessible table. */
import type { TakingsTotals } from '../../../shared/ipc/contract';
import { FigureCells } from '../components/figure-cells';
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
              <th scope="row">
                <bdi>{r.label}</bdi>
              </th>
              <FigureCells t={r} />
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
