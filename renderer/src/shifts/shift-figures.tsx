/**
 * A shift's report on screen: who and when, the figures by network with their total, the payments still
 * awaiting a result apart, and those that ended without the service's answer counted apart.
 */
import type { ShiftReport } from '../../../shared/ipc/contract';
import { dateTime, ghs, networkLabel, phone } from '../format';
import { FigureCells } from '../components/figure-cells';
import { TableHead } from '../components/table-head';
import { UnsentCounts } from '../components/unsent-counts';
import { otherEnvironmentNote } from '../../../shared/receipt/build-shift-report';

function Awaiting({ report, timeZone }: { report: ShiftReport; timeZone: string }) {
  if (report.pending.length === 0) return <p data-testid="shift-awaiting">No payment of this shift is waiting for a result.</p>;
  const overdue = report.pending.filter((p) => p.overdue).length;
  return (
    <section aria-labelledby="shift-awaiting-title" data-testid="shift-awaiting">
      <h2 id="shift-awaiting-title">Still waiting for a result ({report.pending.length})</h2>
      <p>Not in the figures above until their results arrive.</p>
      <ul className="shift-pending">
        {report.pending.map((p) => (
          <li key={p.id}>
            <span className="num">{ghs(p.amount)}</span> · {phone(p.msisdn)} · {networkLabel(p.network)} · {dateTime(p.createdAt, timeZone)}
            {p.overdue ? <strong className="overdue"> · Overdue</strong> : null}
          </li>
        ))}
      </ul>
      {overdue > 0 ? (
        <p data-testid="shift-overdue">
          Overdue: no result for longer than the service keeps trying to send one. Find it in the service's dashboard under Deliveries and
          replay it; a replayed result lands here by itself.
        </p>
      ) : null}
    </section>
  );
}

export function ShiftFigures({ report, timeZone }: { report: ShiftReport; timeZone: string }) {
  return (
    <div className="shift-figures" data-testid="shift-report">
      <dl className="detail-list">
        <dt>Cashier</dt>
        <dd data-testid="shift-person">{report.staffName}</dd>
        <dt>Opened</dt>
        <dd>{dateTime(report.openedAt, timeZone)}</dd>
        <dt>Closed</dt>
        <dd data-testid="shift-closed">
          {report.closedAt
            ? `${dateTime(report.closedAt, timeZone)}${report.closedBy ? ` by ${report.closedBy}` : ''}`
            : 'Still open: figures as of now'}
        </dd>
        <dt>Money</dt>
        <dd data-testid="shift-environment">{report.environment === 'live' ? 'LIVE' : 'TEST (sandbox): no real money moved'}</dd>
      </dl>
      {otherEnvironmentNote(report) ? <p data-testid="shift-other-environment">{otherEnvironmentNote(report)}</p> : null}
      <table className="breakdown shift-table" data-testid="shift-table">
        <caption>By network</caption>
        <TableHead
          columns={['Network', ...['Payments', 'Paid', 'Not paid', 'Gross', 'Fees', 'Net'].map((label) => ({ label, numeric: true }))]}
        />
        <tbody>
          {report.byNetwork.length === 0 ? (
            <tr>
              <td colSpan={7} className="muted">
                No payment with a result in this shift yet.
              </td>
            </tr>
          ) : (
            report.byNetwork.map((n) => (
              <tr key={n.network}>
                <th scope="row">{networkLabel(n.network)}</th>
                <FigureCells t={n} failed />
              </tr>
            ))
          )}
        </tbody>
        <tfoot>
          <tr data-testid="shift-total">
            <th scope="row">All</th>
            <FigureCells t={report.totals} failed />
          </tr>
        </tfoot>
      </table>
      <Awaiting report={report} timeZone={timeZone} />
      <UnsentCounts name="shift" unsent={report.unsent} heading="h2" />
    </div>
  );
}
