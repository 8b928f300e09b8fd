/**
 * A page of GET /v1/transactions, bounded in bytes as well as in events: the store is read a few events
 * at a time and each event's JSON is written as stored, so ten pages at once hold a few MiB, not
 * hundreds (500 events of 64 KiB each, parsed and written again, each page several times over).
 * A page ends once its events pass maxPageBytes (hasMore: true, the till reads on); it always holds
 * one event, so any event can be read.
 */
import type { ServerResponse } from 'node:http';
import type { Environment } from '../../../shared/domain.js';
import type { RelayPage } from '../../../shared/relay-wire.js';
import { eventJson, type RelayStore } from '../../store/index.js';

const CHUNK = 32;

export type PageText = { items: string[]; nextAfter: number | undefined; hasMore: boolean };

export async function readPage(
  store: Pick<RelayStore, 'rowsAfter'>,
  merchantId: string,
  after: number,
  bounds: { limit: number; maxBytes: number },
  environment?: Environment,
): Promise<PageText> {
  const items: string[] = [];
  let bytes = 0;
  let cursor = after;
  let nextAfter: number | undefined;
  for (;;) {
    const want = Math.min(CHUNK, bounds.limit - items.length) + 1;
    const rows = await store.rowsAfter(merchantId, cursor, want, environment);
    for (const row of rows) {
      if (items.length >= bounds.limit || (items.length > 0 && bytes >= bounds.maxBytes)) return { items, nextAfter, hasMore: true };
      const json = eventJson(row);
      items.push(json);
      bytes += Buffer.byteLength(json);
      nextAfter = row.seq;
    }
    if (rows.length < want) return { items, nextAfter, hasMore: false };
    cursor = nextAfter ?? cursor;
  }
}

/** The page as RelayPage's JSON, its events written as the store keeps them. */
export function sendPage(res: ServerResponse, logId: string, after: number, page: PageText): void {
  const tail: Omit<RelayPage, 'items'> = { logId, nextAfter: page.nextAfter ?? after, hasMore: page.hasMore };
  const text = `{"items":[${page.items.join(',')}],${JSON.stringify(tail).slice(1)}`;
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}
