/**
 * A question over the screen before a step that cannot be undone (charging an unusual prompt, discarding
 * edits). The safe answer has the focus, so a reflex Enter or Escape takes it; the other one takes a Tab first.
 */
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useFocusOnArrival } from '../hooks/use-focus-on-arrival';
import './components.css';

type Answer = { label: ReactNode; onClick: () => void };

type Props = {
  /** The title's and body's ids start with it (`${name}-title`, `${name}-body`). */
  name: string;
  testId: string;
  className?: string;
  title: ReactNode;
  titleTestId?: string;
  /** The safe answer (the focus, Enter and Escape), shown first. */
  safe: Answer;
  /** The answer that goes ahead. */
  ahead: Answer;
  /** Tab moves between the two answers only, never to the screen behind. */
  keepTabInside?: boolean;
  children: ReactNode;
};

export function QuestionDialog({ name, testId, className, title, titleTestId, safe, ahead, keepTabInside = false, children }: Props) {
  const safeRef = useRef<HTMLButtonElement>(null);
  const aheadRef = useRef<HTMLButtonElement>(null);
  useFocusOnArrival(safeRef);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      safe.onClick();
    } else if (e.key === 'Tab' && keepTabInside) {
      e.preventDefault();
      (document.activeElement === safeRef.current ? aheadRef : safeRef).current?.focus();
    }
  };
  return (
    <div className="overlay">
      <div
        className={className ? `confirm-dialog ${className}` : 'confirm-dialog'}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${name}-title`}
        aria-describedby={`${name}-body`}
        data-testid={testId}
        onKeyDown={onKeyDown}
      >
        <h2 id={`${name}-title`} data-testid={titleTestId}>
          {title}
        </h2>
        <div id={`${name}-body`}>{children}</div>
        <div className="actions">
          <button ref={safeRef} type="button" className="primary big" onClick={safe.onClick}>
            {safe.label}
          </button>
          <button ref={aheadRef} type="button" className="secondary" onClick={ahead.onClick}>
            {ahead.label}
          </button>
        </div>
      </div>
    </div>
  );
}
