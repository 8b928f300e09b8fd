/** "Unsaved changes", next to a section's Save button while its boxes hold edits not saved yet. */
import './unsaved.css';

export function UnsavedMark({ dirty, testId }: { dirty: boolean; testId: string }) {
  return dirty ? (
    <span className="unsaved-mark" data-testid={testId}>
      Unsaved changes
    </span>
  ) : null;
}
