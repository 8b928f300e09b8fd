/**
 * Over Settings after a lock by the core: the edits it kept (each section is marked unsaved too) and the
 * secrets it did not keep. Said once, as the page opens, so the owner saves or discards on purpose.
 */
import './unsaved.css';
import type { KeptSummary } from './kept-drafts';

export function KeptNotice({ summary }: { summary: KeptSummary }) {
  const { sections, unkept } = summary;
  if (sections.length === 0 && unkept.length === 0) return null;
  const them = unkept.length === 1 ? 'it' : 'them';
  return (
    <div className="kept-notice unsaved-note" role="status">
      {sections.length > 0 ? (
        <>
          <p data-testid="kept-notice">Your unsaved changes from before the lock were kept — save or discard them.</p>
          <p data-testid="kept-sections">Not saved yet: {sections.join(', ')}.</p>
        </>
      ) : null}
      {unkept.length > 0 ? (
        <p data-testid="kept-secrets">
          Not kept, as secrets never are: {unkept.join(', ')}. Type {them} again to change {them}.
        </p>
      ) : null}
    </div>
  );
}
