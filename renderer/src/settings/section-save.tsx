import { useState } from 'react';
import { errorMessage } from '../api';
import { SaveMessage, type SaveResult } from '../components/save-message';
import { UnsavedMark } from '../unsaved/unsaved-mark';

/**
 * A Settings section's save: `save` sends what the section holds, says `done` once the core has it, marks it
 * saved (its unsaved mark goes) and tells the screen; a refusal (or a throw while building the request) is
 * said in the section and keeps the edits. `refuse` says why the section did not send at all.
 */
export function useSectionSave<V>(unsaved: { saved(values: V): void }, onSaved: () => void) {
  const [message, setMessage] = useState<SaveResult>(null);
  const save = async (values: V, send: () => Promise<unknown>, done: string) => {
    try {
      await send();
      setMessage({ ok: true, text: done });
      unsaved.saved(values);
      onSaved();
    } catch (err) {
      setMessage({ ok: false, text: errorMessage(err) });
    }
  };
  const refuse = (text: string) => setMessage({ ok: false, text });
  return { message, save, refuse };
}

type FooterProps = { message: SaveResult; messageTestId?: string; submit: string; dirty: boolean; unsavedTestId: string };

/** The foot of a Settings section: what its last save said, its Save button, and its unsaved mark. */
export function SectionSaveFooter({ message, messageTestId, submit, dirty, unsavedTestId }: FooterProps) {
  return (
    <>
      <SaveMessage message={message} testId={messageTestId} />
      <div className="actions">
        <button type="submit" className="secondary">
          {submit}
        </button>
        <UnsavedMark dirty={dirty} testId={unsavedTestId} />
      </div>
    </>
  );
}
