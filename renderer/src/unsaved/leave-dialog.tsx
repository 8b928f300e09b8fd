/**
 * "Discard unsaved changes?": asked before leaving a screen whose sections hold edits not saved yet.
 * "Keep editing" has the focus, so a reflex Enter (or Escape) keeps them; discarding takes a Tab first.
 * Tab stays inside the question while it is open.
 */
import { QuestionDialog } from '../components/question-dialog';

type Props = { sections: string[]; onKeep: () => void; onDiscard: () => void };

export function LeaveDialog({ sections, onKeep, onDiscard }: Props) {
  return (
    <QuestionDialog
      name="leave"
      testId="leave-dialog"
      className="leave-dialog"
      title="Discard unsaved changes?"
      titleTestId="leave-title"
      safe={{ label: 'Keep editing', onClick: onKeep }}
      ahead={{ label: 'Discard changes', onClick: onDiscard }}
      keepTabInside
    >
      <p data-testid="leave-sections">Not saved yet: {sections.join(', ')}.</p>
      <p>Keep editing, then press that section’s Save button; or discard what was typed there.</p>
    </QuestionDialog>
  );
}
