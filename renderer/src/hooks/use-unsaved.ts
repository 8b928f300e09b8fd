/**
 * Edits typed but not saved yet, by section (issue 20, item 10). Each Settings section reports whether
 * what its boxes hold differs from what it last saved; the app asks "Discard unsaved changes?" before
 * anything would drop them (another section, the Lock button, a late-result notice). Saving one section
 * never touches another's boxes, and a section with unsaved edits says so next to its Save button.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';

type Registry = { report(key: string, label: string | null): void };

/** Provided by the app; a form outside it (none today) simply reports to nobody. */
export const UnsavedContext = createContext<Registry | null>(null);

type Leaving = { go: () => void; sections: string[]; from: HTMLElement | null };

/**
 * The app's side: the sections holding unsaved edits (by their heading, in the order they were edited),
 * and `guard(go)`, which does `go` at once when nothing is unsaved, or else opens the question: `keep`
 * closes it (the focus back where it was), `discard` forgets the edits and does `go`.
 */
export function useLeaveGuard() {
  const sections = useRef(new Map<string, string>());
  const [leaving, setLeaving] = useState<Leaving | null>(null);
  const registry = useMemo<Registry>(
    () => ({
      report: (key, label) => {
        if (label === null) sections.current.delete(key);
        else sections.current.set(key, label);
      },
    }),
    [],
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
    setLeaving(null);
    leaving?.go();
  }, [leaving]);
  return { registry, leaving, guard, keep, discard };
}

/**
 * A section's side: `values` are what its boxes hold now; `saved(values)` after a save that succeeded
 * (with what the boxes hold after it). `label` is the section's heading, as the question names it.
 */
export function useUnsaved<T>(key: string, label: string, values: T) {
  const [baseline, setBaseline] = useState(() => JSON.stringify(values));
  const dirty = JSON.stringify(values) !== baseline;
  const registry = useContext(UnsavedContext);
  useEffect(() => registry?.report(key, dirty ? label : null), [registry, key, label, dirty]);
  useEffect(() => () => registry?.report(key, null), [registry, key]);
  const saved = useCallback((as: T) => setBaseline(JSON.stringify(as)), []);
  return { dirty, saved };
}
