/** On the status bar: who is selling, one tap to switch person (the till locks for the next PIN), and sign out. */
import type { PersonView } from '../../../shared/ipc/contract';
import { call } from '../api';
import './people.css';

const ROLE_LABELS = { owner: 'owner', manager: 'manager', cashier: 'cashier' } as const;

export function SessionBadge({ person, onChanged }: { person: PersonView; onChanged: () => void }) {
  const run = (channel: 'session:lock' | 'session:signOut') => void call(channel, {}).then(onChanged, onChanged);
  return (
    <span className="session-badge" data-testid="signed-in">
      <button type="button" className="secondary small" onClick={() => run('session:lock')} title="Lock the till for the next person">
        {person.name} <span className="role-mark">({ROLE_LABELS[person.role]})</span> · Switch
      </button>
      <button type="button" className="secondary small" onClick={() => run('session:signOut')} title="End your shift and sign out">
        Sign out
      </button>
    </span>
  );
}
