/**
 * "Discard unsaved changes?": asked before leaving a screen whose sections hold edits not saved yet.
 * "Keep editing" has the focus, so a reflex Enter (or Escape) keeps them; discarding takes a Tab first.
 * Tab stays inside the question while it is open.
 */
import { useRef, type KeyboardEvent } from 'react';
import { useFocusOnArrival } from '../hooks/use-focus-on-arrival';
import '../components/components.css';

type Props = { sections: string[]; onKeep: () => void; onDiscard: () => void };

export function LeaveDialog({ sections, onKeep, onDiscard }: Props) {
  const keepRef = useRef<HTMLButtonElement>(null);
  const discardRef = useRef<HTMLButtonElement>(null);
  useFocusOnArrival(keepRef);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      onKeep();
    } else if (e.key === 'Tab') {
      e.preventDefault();
      (document.activeElement === keepRef.current ? discardRef : keepRef).current?.focus();
    }
  };
  return (
    <div className="overlay">
      <div
        className="confirm-dialog leave-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="leave-title"
        aria-describedby="leave-body"
        data-testid="leave-dialog"
        onKeyDown={onKeyDown}
      >
        <h2 id="leave-title" data-testid="leave-title">
          Discard unsaved changes?
        </h2>
        <div id="leave-body">
          <p data-testid="leave-sections">Not saved yet: {sections.join(', ')}.</p>
          <p>Keep editing, then press that section’s Save button; or discard what was typed there.</p>
        </div>
        <div className="actions">
          <button ref={keepRef} type="button" className="primary big" onClick={onKeep}>
            Keep editing
          </button>
          <button ref={discardRef} type="button" className="secondary" onClick={onDiscard}>
            Discard changes
          </button>
        </div>
      </div>
    </div>
  );
}
