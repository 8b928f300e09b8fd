import type { ReactNode } from 'react';

type Props = {
  /** The submit button's words. */
  submit: ReactNode;
  /** A submit that cannot be taken back (switching to LIVE) is red. */
  danger?: boolean;
  disabled?: boolean;
  /** Cancel is shown only when the form can be left. */
  onCancel?: () => void;
};

/** A form's buttons: its submit, then Cancel. */
export function FormActions({ submit, danger = false, disabled, onCancel }: Props) {
  return (
    <div className="actions">
      <button type="submit" className={danger ? 'danger' : 'primary'} disabled={disabled}>
        {submit}
      </button>
      {onCancel ? (
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      ) : null}
    </div>
  );
}
