/**
 * Every admin list is answered a page at a time: `?limit=` (1-1000, 100 by default) items, and while
 * more follow, a `Link: <…?limit=…&after=…>; rel="next"` header naming the next page. The cursor is the
 * last item's place in the list's order (a merchant's id, an audit line's number…), written opaque
 * (base64url): a page asked for later starts after that item, so items added or removed meanwhile
 * never shift another page's items onto it twice or off it.
 */
import { cursorOf, placeOfCursor } from '../../store/index.js';
import { TenantError } from '../../store/pg/index.js';

export type PageAnswer = { status: number; body: unknown; headers?: Record<string, string> };

/** What the store is asked: up to `limit` items after the item whose place is `after`. */
export type Page = { after?: string; limit: number };

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

function limitOf(query: URLSearchParams): number {
  const text = query.get('limit');
  if (text === null) return DEFAULT_LIMIT;
  if (!/^[0-9]{1,4}$/.test(text) || Number(text) < 1 || Number(text) > MAX_LIMIT) throw new TenantError(`limit: must be 1-${MAX_LIMIT}`);
  return Number(text);
}

function afterOf(query: URLSearchParams): string | undefined {
  const text = query.get('after');
  if (text === null) return undefined;
  const place = placeOfCursor(text);
  if (place === undefined) {
    throw new TenantError('after: not a cursor this list gave (take it from the Link header of the page before)');
  }
  return place;
}

/** One page of a list: one more item is read than shown, to know whether a next page exists. */
export async function paged<T>(
  query: URLSearchParams,
  read: (page: Page) => Promise<T[]>,
  placeOf: (item: T) => string,
): Promise<PageAnswer> {
  const limit = limitOf(query);
  const items = await read({ after: afterOf(query), limit: limit + 1 });
  if (items.length <= limit) return { status: 200, body: items };
  const shown = items.slice(0, limit);
  const cursor = cursorOf(placeOf(shown[limit - 1]!));
  return { status: 200, body: shown, headers: { link: `<?limit=${limit}&after=${cursor}>; rel="next"` } };
}
