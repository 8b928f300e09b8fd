/** The CLI's lists page as the admin API does: one page with --limit and the next one's cursor, or the whole list a page at a time. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageOf, printPaged, type ListRead } from '../../../../relay/cli/paging.js';
import { cursorOf, placeOfCursor } from '../../../../relay/store/index.js';

/** A sorted list the store would hold, read keyset-wise as the stores read it; `reads` counts the store's answers. */
function store(ids: string[]) {
  const reads: Array<{ after?: string; limit: number }> = [];
  const read: ListRead<string> = async (page) => {
    reads.push(page);
    return pageOf(ids, (id) => id, page);
  };
  return { ids, reads, read };
}

function capture() {
  const stdout: string[] = [];
  const stderr: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true));
  vi.spyOn(console, 'error').mockImplementation((line: string) => void stderr.push(line));
  return { stdout, stderr };
}

afterEach(() => vi.restoreAllMocks());

describe('printPaged', () => {
  const ids = (n: number, prefix = 'MCH_') => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(5, '0')}`);

  it('--limit prints one page and, while more follow, the cursor of the next on stderr; that page starts after the last shown even when items arrive before it', async () => {
    const s = store(ids(5));
    const io = capture();
    await printPaged(
      { limit: '2' },
      s.read,
      (id) => id,
      (id) => id,
    );
    expect(io.stdout).toEqual(['MCH_00000\n', 'MCH_00001\n']);
    expect(io.stderr).toEqual([`More follow: the same command with --after ${cursorOf('MCH_00001')}`]);
    const cursor = io.stderr[0]!.split(' ').at(-1)!;

    s.ids.unshift('MCH_0000'); // added before the cursor: not shown again, nothing shifted
    io.stdout.length = 0;
    io.stderr.length = 0;
    await printPaged(
      { limit: '2', after: cursor },
      s.read,
      (id) => id,
      (id) => id,
    );
    expect(io.stdout).toEqual(['MCH_00002\n', 'MCH_00003\n']);
    io.stdout.length = 0;
    io.stderr.length = 0;
    await printPaged(
      { limit: '2', after: cursorOf('MCH_00003'), json: true },
      s.read,
      (id) => id,
      (id) => id,
    );
    expect(io.stdout).toEqual(['["MCH_00004"]\n']);
    expect(io.stderr).toEqual([]); // the last page names no next one
  });

  it('without --limit prints the whole list, read from the store 1000 at a time and printed as each page comes', async () => {
    const s = store(ids(2003));
    const io = capture();
    await printPaged(
      {},
      s.read,
      (id) => id,
      (id) => id,
    );
    expect(io.stdout.join('')).toBe(s.ids.map((id) => `${id}\n`).join(''));
    expect(s.reads).toEqual([{ limit: 1000 }, { after: 'MCH_00999', limit: 1000 }, { after: 'MCH_01999', limit: 1000 }]);
    expect(io.stderr).toEqual([]);
    io.stdout.length = 0;
    await printPaged(
      { json: true, after: cursorOf('MCH_02000') },
      s.read,
      (id) => id,
      (id) => id,
    );
    expect(JSON.parse(io.stdout.join(''))).toEqual(['MCH_02001', 'MCH_02002']);
  });
});

describe('pageOf and the cursor', () => {
  it('pages a list held in memory by its key, newest first when descending', () => {
    const links = [
      { id: 'ol_b', createdAt: '2026-01-02' },
      { id: 'ol_a', createdAt: '2026-01-03' },
      { id: 'ol_c', createdAt: '2026-01-02' },
    ];
    const place = (l: { id: string; createdAt: string }) => `${l.createdAt} ${l.id}`;
    expect(pageOf(links, place, { limit: 2 }, 'descending').map((l) => l.id)).toEqual(['ol_a', 'ol_c']);
    expect(pageOf(links, place, { after: '2026-01-02 ol_c', limit: 2 }, 'descending').map((l) => l.id)).toEqual(['ol_b']);
  });

  it('reads back only a cursor a list gave', () => {
    expect(placeOfCursor(cursorOf('MCH_ama front counter'))).toBe('MCH_ama front counter');
    expect(placeOfCursor('not a cursor!')).toBeUndefined();
    expect(placeOfCursor('A')).toBeUndefined(); // no byte
    expect(placeOfCursor('_w')).toBeUndefined(); // not UTF-8
  });
});
