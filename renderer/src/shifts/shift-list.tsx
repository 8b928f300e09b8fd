/** Past and open shifts, newest first, each viewable; a manager or the owner may show one person's only. */
import type { PersonView, ShiftSummary } from '../../../shared/ipc/contract';
import { dateTime, ghs } from '../format';
import { SelectOptions } from '../components/select-options';
import { TableHead } from '../components/table-head';

type Props = {
  shifts: ShiftSummary[];
  timeZone: string;
  /** The people to filter by (null: the signed-in person sees only their own shifts, no filter). */
  people: PersonView[] | null;
  staffId: string;
  onStaffId: (id: string) => void;
  onView: (id: string) => void;
};

export function ShiftList({ shifts, timeZone, people, staffId, onStaffId, onView }: Props) {
  return (
    <section aria-labelledby="shift-list-title" className="shift-list">
      <h2 id="shift-list-title">Shifts</h2>
      {people ? (
        <label className="filters">
          Person
          <select value={staffId} onChange={(e) => onStaffId(e.target.value)} data-testid="shift-person-filter">
            <SelectOptions none="Everyone" choices={people.map((p) => ({ value: p.id, label: p.name }))} />
          </select>
        </label>
      ) : null}
      <table className="breakdown" data-testid="shift-list">
        <TableHead columns={['Cashier', 'Opened', 'Closed', ...['Payments', 'Net'].map((label) => ({ label, numeric: true })), '']} />
        <tbody>
          {shifts.length === 0 ? (
            <tr>
              <td colSpan={6} className="muted">
                No shifts yet.
              </td>
            </tr>
          ) : (
            shifts.map((s) => (
              <tr key={s.id}>
                <th scope="row">{s.staffName}</th>
                <td>{dateTime(s.openedAt, timeZone)}</td>
                <td>{s.closedAt ? dateTime(s.closedAt, timeZone) : 'open'}</td>
                <td className="num">
                  {s.count}
                  {s.pending > 0 ? ` (+${s.pending} waiting)` : ''}
                </td>
                <td className="num">{ghs(s.net)}</td>
                <td>
                  <button
                    type="button"
                    className="secondary small"
                    onClick={() => onView(s.id)}
                    aria-label={`View ${s.staffName}'s shift of ${dateTime(s.openedAt, timeZone)}`}
                  >
                    View
                  </button>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  );
}
