/** Front door of unsaved/ (what other folders may use): this file's hooks, LeaveDialog, UnsavedMark, KeptNotice. */
/**
 * Edits typed but not saved yet, by section. Each Settings section reports whether what its boxes hold
 * differs from what it last saved; the app asks "Discard unsaved changes?" before anything would drop them
 * (another section, the Lock button, a late-result notice). Saving one section never touches another's
 * boxes, and a section with unsaved edits says so next to its Save button. A lock by the core asks nobody:
 * the sections it closes leave their edits in KeptDrafts (kept-drafts.ts) and take them back when the same
 * person opens them again. Closing the window (or quitting, or a reload) while a section is unsaved asks
 * too, and so does closing it while a lock keeps edits (at the lock screen, whoever stands there is asked;
 * the question names no value): the page's beforeunload holds the close for the shell's question ("Keep
 * editing" its default); with nothing unsaved the window closes at once.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { onEvent } from '../api';
import { draftOf, KeptDrafts, type Draft, type KeptSummary, type Secrets } from './kept-drafts';

type Registry = {
  report(key: string, label: string | null): void;
  /** The section left the page holding `draft` (null: nothing unsaved). */
  close(key: string, draft: Draft | null): void;
  kept: KeptDrafts;
};

/** Provided by the app; a form outside it simply reports to nobody. */
export const UnsavedContext = createContext<Registry | null>(null);

type Leaving = { go: () => void; sections: string[]; from: HTMLElement | null };

/** Holds the window's close (or a reload) so the shell asks first; nothing is written anywhere. */
function holdTheClose(event: BeforeUnloadEvent): string {
  event.preventDefault();
  return 'Discard unsaved changes?';
}

/**
 * beforeunload is set only while something is unsaved, on the page or kept through a lock (either way,
 * closing the window would lose it): otherwise the window closes with no question.
 */
function askBeforeClosing(sections: Map<string, string>, kept: KeptDrafts): void {
  window.onbeforeunload = sections.size > 0 || kept.holdsEdits() ? holdTheClose : null;
}

/**
 * The app's side: the sections holding unsaved edits (by their heading, in the order they were edited),
 * and `guard(go)`, which does `go` at once when nothing is unsaved, or else opens the question: `keep`
 * closes it (the focus back where it was), `discard` forgets the edits and does `go`. `person`: who is
 * signed in now (null: nobody, or not known yet), whose edits a lock keeps.
 */
export function useLeaveGuard(person: string | null) {
  const sections = useRef(new Map<string, string>());
  const [leaving, setLeaving] = useState<Leaving | null>(null);
  const [kept] = useState(() => {
    const drafts: KeptDrafts = new KeptDrafts(() => askBeforeClosing(sections.current, drafts));
    return drafts;
  });
  const registry = useMemo<Registry>(
    () => ({
      report: (key, label) => {
        if (label === null) sections.current.delete(key);
        else sections.current.set(key, label);
        askBeforeClosing(sections.current, kept);
      },
      // Only a section still unsaved is kept: a discard has already forgotten it, a save left nothing.
      close: (key, draft) => {
        if (sections.current.delete(key) && draft) kept.keep(key, draft);
        askBeforeClosing(sections.current, kept);
      },
      kept,
    }),
    [kept],
  );
  useEffect(
    () => () => {
      window.onbeforeunload = null;
    },
    [],
  );
  useEffect(() => {
    if (person) kept.signedIn(person);
  }, [kept, person]);
  // The core's own word, before the screens read the status again: a different person's sign-in drops
  // the kept edits before any screen could show them, and a lock closes the question (its edits are kept).
  useEffect(
    () =>
      onEvent('session:changed', (p) => {
        if (p.signedIn) kept.signedIn(p.signedIn.id);
        else setLeaving(null);
      }),
    [kept],
  );
  const guard = useCallback((go: () => void) => {
    const open = [...sections.current.values()];
    if (open.length === 0) return go();
    const from = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setLeaving({ go, sections: open, from });
  }, []);
  const keep = useCallback(() => {
    setLeaving(null);
    leaving?.from?.focus();
  }, [leaving]);
  const discard = useCallback(() => {
    sections.current.clear();
    askBeforeClosing(sections.current, kept);
    setLeaving(null);
    leaving?.go();
  }, [kept, leaving]);
  return { registry, leaving, guard, keep, discard };
}

/**
 * A section's side: `values` are what its boxes hold now; `saved(values)` after a save that succeeded
 * (with what the boxes hold after it). `label` is the section's heading, as the question names it.
 * `secrets`: what a lock must not keep of it. A section whose edits a lock kept starts its boxes from
 * `useKeptValues(key)` and, here, from what it had saved before the lock, so they show as unsaved.
 */
export function useUnsaved<T>(key: string, label: string, values: T, secrets?: Secrets<T>) {
  const registry = useContext(UnsavedContext);
  const [baseline, setBaseline] = useState(() => {
    const kept = registry?.kept.peek(key);
    return kept && kept.values !== null ? kept.baseline : JSON.stringify(values);
  });
  const dirty = JSON.stringify(values) !== baseline;
  useEffect(() => registry?.report(key, dirty ? label : null), [registry, key, label, dirty]);
  // What a lock would keep, as of the last render: read when the section leaves the page.
  const latest = useRef<Draft | null>(null);
  useEffect(() => {
    latest.current = dirty ? draftOf(label, values, baseline, secrets) : null;
  });
  useEffect(() => {
    registry?.kept.take(key);
    return () => registry?.close(key, latest.current);
  }, [registry, key]);
  const saved = useCallback((as: T) => setBaseline(JSON.stringify(as)), []);
  return { dirty, saved };
}

/** What a lock kept of this section's boxes (secrets emptied), to start them from; null when nothing was. */
export function useKeptValues<T>(key: string): T | null {
  const registry = useContext(UnsavedContext);
  const [values] = useState(() => (registry?.kept.peek(key)?.values ?? null) as T | null);
  return values;
}

/** For the notice over the sections: what a lock kept (and did not keep) when this screen opened. */
export function useKeptSummary(): KeptSummary {
  const registry = useContext(UnsavedContext);
  const [summary] = useState(() => registry?.kept.summary() ?? { sections: [], unkept: [] });
  return summary;
}
