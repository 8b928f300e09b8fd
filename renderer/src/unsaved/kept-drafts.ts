/**
 * Settings edits a lock closed before they were saved. When the core locks by itself (idle time, a laptop's
 * sleep and wake, a clock jump) the owner's sections leave the page, so what their boxes held would be lost
 * without a question. It is kept here instead: in this window's memory only (never on disk, never sent to the
 * core, gone when the window closes), and given back to the same person when they sign in again. Secrets are
 * never kept: the notice names them instead.
 */

/** One section's edits as the lock found them. */
export type Draft = {
  /** The section's heading, as the notice and the leave question name it. */
  label: string;
  /** What its boxes held, secrets emptied; null when nothing but secrets had been typed. */
  values: unknown;
  /** What it had last saved (JSON), so the kept boxes are marked unsaved as before the lock. */
  baseline: string;
  /** What was typed but not kept (secrets), as the notice names it. */
  unkept: string[];
};

/**
 * The boxes a lock never keeps: by field, the name the notice gives it (a secret's saved value is never
 * shown, so its box starts empty and an empty box is what it goes back to); `{ all }` for a section that
 * is nothing but secrets (a PIN change), named `all`.
 */
export type Secrets<T> = { fields: { [K in keyof T]?: string } } | { all: string };

/** What a section held when the lock closed it, secrets left out. */
export function draftOf<T>(label: string, values: T, baseline: string, secrets?: Secrets<T>): Draft {
  if (secrets && 'all' in secrets) return { label, values: null, baseline, unkept: [secrets.all] };
  const kept: Record<string, unknown> = { ...(values as Record<string, unknown>) };
  const unkept: string[] = [];
  for (const [field, name] of Object.entries(secrets?.fields ?? {})) {
    if (kept[field] === '' || typeof name !== 'string') continue;
    kept[field] = '';
    unkept.push(`${label} ${name}`);
  }
  return { label, values: JSON.stringify(kept) === baseline ? null : kept, baseline, unkept };
}

/** What the notice says came back: the sections whose edits were kept, and the secrets that were not. */
export type KeptSummary = { sections: string[]; unkept: string[] };

export class KeptDrafts {
  private readonly drafts = new Map<string, Draft>();
  /** The last person the screens saw signed in: whoever typed the edits a lock closes. */
  private person: string | null = null;

  /** `changed`: called whenever what is kept may have changed (the window's close asks while edits are kept). */
  constructor(private readonly changed: () => void = () => {}) {}

  /** A section closed by a lock with edits not saved yet. */
  keep(key: string, draft: Draft): void {
    if (draft.values !== null || draft.unkept.length > 0) this.drafts.set(key, draft);
    this.changed();
  }

  /** Someone is signed in: edits typed by anyone else are dropped, never shown to them. */
  signedIn(person: string): void {
    if (person !== this.person) this.drafts.clear();
    this.person = person;
    this.changed();
  }

  /**
   * Whether closing the window would lose edits: a section's values are kept. Secrets typed before the
   * lock are gone already (never kept), so a draft of nothing but secrets has nothing left to lose.
   */
  holdsEdits(): boolean {
    for (const draft of this.drafts.values()) if (draft.values !== null) return true;
    return false;
  }

  /** What the section with this key had when the lock closed it (it stays kept until `take`). */
  peek(key: string): Draft | null {
    return this.drafts.get(key) ?? null;
  }

  /** The section is back on the page with its kept edits: they are its own again. */
  take(key: string): void {
    this.drafts.delete(key);
    this.changed();
  }

  summary(): KeptSummary {
    const all = [...this.drafts.values()];
    return { sections: all.filter((d) => d.values !== null).map((d) => d.label), unkept: all.flatMap((d) => d.unkept) };
  }
}
