/** The resolved name, shown before charging so the cashier can read it back to the customer. */
import type { AccountLookup } from './use-account-name';

export function AccountName({ lookup }: { lookup: AccountLookup }) {
  return (
    <div className="account-name" aria-live="polite" data-testid="account-name">
      {lookup.state === 'loading' ? <span className="muted">Looking up the name…</span> : null}
      {lookup.state === 'found' ? (
        <span>
          Wallet name: <strong>{lookup.name}</strong> — check it with the customer.
        </span>
      ) : null}
      {lookup.state === 'none' ? <span className={lookup.noAccount ? 'warning-inline' : 'muted'}>{lookup.message}</span> : null}
    </div>
  );
}
