/**
 * Every list command pages as the admin API does (relay/http/admin/paging.ts), with the same cursor:
 * `--limit <n>` (1-1000) prints one page and, while more follow, the cursor of the next on stderr
 * (`--after <cursor>`); the page it names starts after the last item shown, so items added or removed
 * meanwhile are never shown twice or skipped. Without `--limit` the whole list is printed (from
 * `--after`, if given), as before paging existed, so a script reading every merchant still reads every
 * one; it is read from the store a page at a time and each page printed as it comes, so a reader that
 * stops early (`| head`) ends it there.
 */
import { cursorOf, placeOfCursor } from '../store/index.js';
import { fail, out } from './usage.js';

/** The flags a list command reads. */
export type ListFlags = { json?: boolean; limit?: string; after?: string };

/** What the store is asked: up to `limit` items after the item whose place is `after`. */
export type ListRead<T> = (page: { after?: string; limit: number }) => Promise<T[]>;

export const MAX_LIMIT = 1000;

function limitOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]{1,4}$/.test(text) || Number(text) < 1 || Number(text) > MAX_LIMIT)
    fail(`--limit: a number of items, 1-${MAX_LIMIT} (given "${text}")`);
  return Number(text);
}

function afterOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const place = placeOfCursor(text);
  if (place === undefined) fail('--after: not a cursor this list gave (copy it whole from the "More follow" line of the page before)');
  return place;
}

/** Prints a list a page at a time: one JSON array with --json, else one line per item. */
export async function printPaged<T>(
  v: ListFlags,
  read: ListRead<T>,
  placeOf: (item: T) => string,
  line: (item: T) => string,
): Promise<void> {
  const limit = limitOf(v.limit);
  let after = afterOf(v.after);
  if (limit !== undefined) {
    const items = await read({ after, limit: limit + 1 });
    const shown = items.slice(0, limit);
    if (v.json) out(JSON.stringify(shown));
    else for (const item of shown) out(line(item));
    if (items.length > limit) console.error(`More follow: the same command with --after ${cursorOf(placeOf(shown[limit - 1]!))}`);
    return;
  }
  const all: T[] = [];
  for (;;) {
    const items = await read({ after, limit: MAX_LIMIT });
    if (v.json) all.push(...items);
    else for (const item of items) out(line(item));
    if (items.length < MAX_LIMIT) break;
    after = placeOf(items[items.length - 1]!);
  }
  if (v.json) out(JSON.stringify(all));
}

/**
 * A page of a list held whole in memory (a config file's tills, a single shop's links), sorted by `key`
 * (ascending, or descending for newest first), after the place `after`: keyset paging, like the stores'.
 */
export function pageOf<T>(
  items: readonly T[],
  key: (item: T) => string,
  page: { after?: string; limit: number },
  order: 'ascending' | 'descending' = 'ascending',
): T[] {
  const sign = order === 'ascending' ? 1 : -1;
  const compare = (a: string, b: string) => sign * (a < b ? -1 : a > b ? 1 : 0);
  const sorted = [...items].sort((a, b) => compare(key(a), key(b)));
  return sorted.filter((item) => page.after === undefined || compare(key(item), page.after) > 0).slice(0, page.limit);
}
