/**
 * What neither store can keep, checked before a delivery is acknowledged: PostgreSQL's text and jsonb
 * refuse U+0000, and jsonb refuses an unpaired surrogate; SQLite would keep both, but a relay moved to
 * PostgreSQL (relay import) could not, and a stored value must compare equal to its repeat on every
 * store. So both stores refuse them alike, before anything is stored: a repeat gets the same 400, never
 * an acknowledgement that a later repeat or a retention pass cannot honour.
 */

/** U+0000, or a surrogate half without its other half. */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what is looked for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isUnstorableText(text: string): boolean {
  return UNSTORABLE.test(text);
}

type Visit = { value: unknown; path: string };

/**
 * The path (`data.metadata.note`, `data.items.2`) of a key or string in `value` that a store
 * cannot keep, or null. Walked with an explicit stack: the depth is bounded elsewhere, but the walk
 * never needs to trust that.
 */
export function unstorableField(value: unknown, root = ''): string | null {
  const stack: Visit[] = [{ value, path: root }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop() as Visit;
    if (typeof v === 'string') {
      if (isUnstorableText(v)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: join(path, String(i)) });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i] as [string, unknown];
        // Keys are named escaped: the raw text is what cannot be shown or stored.
        const named = join(path, JSON.stringify(key).slice(1, -1));
        if (isUnstorableText(key)) return named;
        stack.push({ value: inner, path: named });
      }
    }
  }
  return null;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
