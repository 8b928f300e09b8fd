/**
 * A day report's lists: the failures, the results that arrived after the previous close (counted in this
 * report), this till's payments still awaiting a result with what to do about each, those that ended without
 * the service's acknowledgement (counted apart from every figure), and, for a closed Z,
 * what has happened since its close to the payments of its day.
 */
import type { DayReport, SinceCloseLine } from '../../../shared/ipc/contract';
import type { ReactNode } from 'react';
import { TableHead, type Column } from '../components/table-head';
import { UnsentCounts } from '../components/unsent-counts';
import { dayTime, ghs } from '../format';

type Lines = { report: DayReport; timeZone: string };

const ByHand = ({ shown }: { shown: boolean }) => (shown ? <span className="by-hand"> (settled by hand)</span> : null);

/** One of the report's lists as a table; nothing when the list is empty. */
function ListTable<T>(props: {
  testId: string;
  caption: string;
  columns: Column[];
  items: T[];
  keyOf: (item: T) => string;
  cells: (item: T) => ReactNode;
}) {
  const { testId, caption, columns, items, keyOf, cells } = props;
  if (items.length === 0) return null;
  return (
    <table className="breakdown" data-testid={testId}>
      <caption>{caption}</caption>
      <TableHead columns={columns} />
      <tbody>
        {items.map((item) => (
          <tr key={keyOf(item)}>{cells(item)}</tr>
        ))}
      </tbody>
    </table>
  );
}

/** Hand settlements an earlier Z counted that the service's late result changed: the figures counted are corrected here. */
const Corrections = ({ report }: Lines) => (
  <ListTable
    testId="day-corrections"
    caption={`Corrections (${report.corrections.length}): settled by hand, then the service's result changed the figures`}
    columns={['Number', { label: 'Amount', numeric: true }, 'By hand', 'The service', { label: 'Change (net)', numeric: true }]}
    items={report.corrections}
    keyOf={(c) => c.merchantRef}
    cells={(c) => (
      <>
        <td>{c.msisdn}</td>
        <td className="num">{ghs(c.amount)}</td>
        <td>
          {c.hand}
          {c.handBy ? ` by ${c.handBy}` : ''}, counted in {c.countedIn ?? 'an earlier Z'}
        </td>
        <td>{c.service === 'SUCCESS' ? 'PAID' : 'NOT PAID'}: its figures counted here</td>
        <td className="num">{ghs(c.net)}</td>
      </>
    )}
  />
);

const Failures = ({ report, timeZone }: Lines) => (
  <ListTable
    testId="day-failures"
    caption={
      (report.failuresCount ?? report.failures.length) > report.failures.length
        ? `Failures (${report.failuresCount ?? report.failures.length}; the latest ${report.failures.length} listed, all in the CSV)`
        : `Failures (${report.failures.length})`
    }
    columns={['Time', 'Number', { label: 'Amount', numeric: true }, 'Till', 'Cashier', 'Reason']}
    items={report.failures}
    keyOf={(f) => f.reference}
    cells={(f) => (
      <>
        <td>{dayTime(f.completedAt, timeZone)}</td>
        <td>
          {f.msisdn}
          <ByHand shown={f.settledByHand} />
        </td>
        <td className="num">{ghs(f.amount)}</td>
        <td>{f.till}</td>
        <td>{f.cashier ? <bdi>{f.cashier}</bdi> : '—'}</td>
        <td>{f.reason ?? 'Not given by the service'}</td>
      </>
    )}
  />
);

const ArrivedAfterClose = ({ report, timeZone }: Lines) => (
  <ListTable
    testId="day-late"
    caption={`Arrived after close (${report.arrivedAfterClose.length}): results for a day already closed, counted in this report`}
    columns={['Result', 'Started', 'Number', { label: 'Amount', numeric: true }, 'Cashier', 'Day closed in']}
    items={report.arrivedAfterClose}
    keyOf={(l) => l.reference}
    cells={(l) => (
      <>
        <td>
          {l.status === 'SUCCESS' ? 'PAID' : 'NOT PAID'}
          <ByHand shown={l.settledByHand} />
        </td>
        <td>{dayTime(l.startedAt ?? l.completedAt, timeZone)}</td>
        <td>{l.msisdn}</td>
        <td className="num">{ghs(l.amount)}</td>
        <td>{l.cashier ? <bdi>{l.cashier}</bdi> : '—'}</td>
        <td>{l.closedDay ?? '—'}</td>
      </>
    )}
  />
);

function Awaiting({ report, timeZone }: Lines) {
  if (report.awaiting.length === 0) return null;
  return (
    <section className="awaiting" aria-labelledby="day-awaiting-title" data-testid="day-awaiting">
      <h3 id="day-awaiting-title">Still waiting for a result ({report.awaiting.length}): not in the figures</h3>
      <ul className="day-awaiting-list">
        {report.awaiting.map((a) => (
          <li key={a.paymentId} data-testid={`day-awaiting-${a.status}`}>
            <strong>{a.status === 'overdue' ? 'Overdue' : 'Pending'}</strong>: {a.msisdn}, {ghs(a.amount)}, started{' '}
            {dayTime(a.startedAt, timeZone)}
            {a.cashier ? ` by ${a.cashier}` : ''} (merchant reference <span>{a.merchantRef}</span>).
            <br />
            {a.whatToDo}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Neither paid nor failed: their count and amount apart from every figure, then the latest one by one. */
function Unsent({ report, timeZone }: Lines) {
  return (
    <UnsentCounts name="day" unsent={report.unsent} heading="h3">
      <ul className="day-awaiting-list">
        {report.unsentLines.map((u) => (
          <li key={u.merchantRef} data-testid={`day-unsent-${u.state}`}>
            <strong>{u.state === 'not_sent' ? 'Not sent' : 'May have reached the service'}</strong>: {u.msisdn}, {ghs(u.amount)}, started{' '}
            {dayTime(u.startedAt, timeZone)}
            {u.cashier ? ` by ${u.cashier}` : ''} (merchant reference <span>{u.merchantRef}</span>).
          </li>
        ))}
      </ul>
    </UnsentCounts>
  );
}

export function DayReportLists(props: Lines) {
  return (
    <>
      <Failures {...props} />
      <ArrivedAfterClose {...props} />
      <Corrections {...props} />
      <Awaiting {...props} />
      <Unsent {...props} />
    </>
  );
}

function since(line: SinceCloseLine, timeZone: string): string {
  if (line.status === null) return 'Still no result.';
  const result = `${line.status === 'SUCCESS' ? 'PAID' : 'NOT PAID'}${line.settledByHand ? ' (settled by hand)' : ''}`;
  const counted = line.countedIn ? `counted in ${line.countedIn}` : 'to be counted in the next Z report';
  return `${result} at ${dayTime(line.completedAt, timeZone)}: arrived after this close, ${counted}.`;
}

/** Beside a closed Z's frozen figures: the results of its day that arrived since (its own figures never change). */
export function SinceCloseList({ lines, timeZone }: { lines: SinceCloseLine[]; timeZone: string }) {
  return (
    <section className="day-since" aria-labelledby="day-since-title" data-testid="day-since">
      <h3 id="day-since-title">Since this close</h3>
      {lines.length === 0 ? (
        <p className="muted">No result for this day has arrived since it was closed, and none is awaited.</p>
      ) : (
        <table className="breakdown">
          <TableHead columns={['Number', { label: 'Amount', numeric: true }, 'At the close', 'Since']} />
          <tbody>
            {lines.map((l) => (
              <tr key={l.merchantRef ?? `${l.msisdn}-${l.completedAt}`} data-testid="day-since-line">
                <td>{l.msisdn}</td>
                <td className="num">{ghs(l.amount)}</td>
                <td>{l.listedAs === 'not listed' ? 'Not listed' : l.listedAs === 'overdue' ? 'Overdue' : 'Pending'}</td>
                <td>{since(l, timeZone)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
