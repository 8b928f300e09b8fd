/** The owner's staff list: who may sign in, with which role; add, edit and disable people. */
import { useState } from 'react';
import { call } from '../api';
import { useCoreRead } from '../hooks/use-core-read';
import { StaffForm } from './staff-form';
import { FormError } from '../components/form-error';
import { Screen } from '../components/screen';
import { TableHead } from '../components/table-head';
import './people.css';

const ROLE = { owner: 'Owner', manager: 'Manager', cashier: 'Cashier' } as const;

const readStaff = async () => (await call('staff:list', {})).staff;

export function StaffScreen({ onChanged }: { onChanged: () => void }) {
  const { value: staff, error, reload: load } = useCoreRead(readStaff);
  const [editing, setEditing] = useState<string | null>(null);

  const saved = () => {
    setEditing(null);
    void load();
    onChanged();
  };

  return (
    <Screen name="staff" title="Staff">
      <FormError message={error} />
      <p>Once a cashier or manager is added, the till asks &ldquo;Who is selling?&rdquo; and each payment records who started it.</p>
      <table className="staff-table">
        <TableHead columns={['Name', 'Role', 'State', { label: <span className="visually-hidden">Actions</span> }]} />
        <tbody>
          {(staff ?? []).map((m) => (
            <tr key={m.id} className={m.active ? undefined : 'inactive'}>
              <td>{m.name}</td>
              <td>{ROLE[m.role]}</td>
              <td>{!m.active ? 'Disabled' : m.lockedForSeconds > 0 ? `Locked out (${m.lockedForSeconds} s)` : 'May sign in'}</td>
              <td>
                <button type="button" className="secondary small" onClick={() => setEditing(editing === m.id ? null : m.id)}>
                  Edit {m.name}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {staff?.find((m) => m.id === editing) ? (
        <StaffForm key={editing} member={staff.find((m) => m.id === editing)} onSaved={saved} onCancel={() => setEditing(null)} />
      ) : null}
      <h2>Add a person</h2>
      <StaffForm onSaved={saved} />
    </Screen>
  );
}
