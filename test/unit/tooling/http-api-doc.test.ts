/**
 * relay/docs/http-api.md, the relay's public HTTP interface, as the relay serves it: every route of the public
 * port (read from the tables its matchers use, gathered in PUBLIC_ROUTES) has its row in the Routes table (who
 * calls it, what it answers; its refusals follow), no table names a route the relay does not serve, and each
 * limit the document links to has its row in the section it links to (its default is stated there, once).
 */
import { describe, expect, it } from 'vitest';
import { PUBLIC_ROUTES } from '../../../relay/http/index.js';
import { readDoc } from '../../support/doc-blocks.js';

const doc = readDoc('relay/docs/http-api.md');

/** `METHOD /path` of every code span in the first cell of a table row (the path up to its query). */
function documentedRoutes(text: string): string[] {
  const found = new Set<string>();
  for (const line of text.split('\n')) {
    const cell = /^\|((?:[^|\\]|\\.)+)\|/.exec(line)?.[1];
    if (!cell) continue;
    for (const m of cell.matchAll(/`([A-Z]+) (\/[^`?[\s]*)/g)) found.add(`${m[1]} ${m[2]}`);
  }
  return [...found];
}

/** GitHub's anchor for a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

/** The text of the section whose heading's anchor is `anchor`, up to the next heading of its level or above. */
function section(text: string, anchor: string): string | undefined {
  const headings = [...text.matchAll(/^(#+) (.+)$/gm)];
  const i = headings.findIndex((h) => slug(h[2] as string) === anchor);
  if (i < 0) return undefined;
  const start = headings[i] as RegExpMatchArray;
  const next = headings.slice(i + 1).find((h) => (h[1] as string).length <= (start[1] as string).length);
  return text.slice(start.index, next?.index);
}

describe('relay/docs/http-api.md', () => {
  it('has a row in its Routes table for every route the public port serves', () => {
    const listed = documentedRoutes(section(doc.text, 'routes') ?? '');
    expect(PUBLIC_ROUTES.length).toBeGreaterThan(10);
    expect(
      PUBLIC_ROUTES.filter((r) => !listed.includes(r)),
      'routes served with no row in the Routes table of relay/docs/http-api.md',
    ).toEqual([]);
  });

  it('names no route the public port does not serve (GET /metrics is there to say it answers 404)', () => {
    expect(documentedRoutes(doc.text).filter((r) => !PUBLIC_ROUTES.includes(r) && r !== 'GET /metrics')).toEqual([]);
  });

  it('links each limit to its row, in the section of the document that states it', () => {
    const links = [...doc.text.matchAll(/\[`(\w+)`\]\(([\w-]+\.md)#([\w-]+)\)/g)];
    expect(links.length).toBeGreaterThan(10);
    const missing = links.filter(([, name, file, anchor]) => {
      const text = section(readDoc(`relay/docs/${file}`).text, anchor as string);
      return !text || !new RegExp(`^\\| \`${name}\``, 'm').test(text);
    });
    expect(missing.map((m) => m[0])).toEqual([]);
  });

  it('links only to headings that exist, here and in the documents beside it', () => {
    const links = [...doc.text.matchAll(/\]\(((?:[\w-]+\.md)?)#([\w-]+)\)/g)];
    expect(links.length).toBeGreaterThan(10);
    const broken = links.filter(([, file, anchor]) => !section(file ? readDoc(`relay/docs/${file}`).text : doc.text, anchor as string));
    expect(broken.map((m) => m[0])).toEqual([]);
  });
});
