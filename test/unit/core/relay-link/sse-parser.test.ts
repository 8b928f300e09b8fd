import { describe, expect, it } from 'vitest';
import { SseParser, type SseMessage } from '../../../../electron/core/relay-link/sse-parser.js';

function parse(chunks: Array<string | Uint8Array>): SseMessage[] {
  const out: SseMessage[] = [];
  const p = new SseParser((m) => out.push(m));
  for (const c of chunks) p.push(typeof c === 'string' ? new TextEncoder().encode(c) : c);
  return out;
}

describe('SSE parser', () => {
  it('parses events with ids, ignores comments (heartbeats), joins multi-line data', () => {
    expect(parse([': heartbeat\n\nid: 7\nevent: transaction\ndata: {"a":1}\n\ndata: x\ndata: y\n\n'])).toEqual([
      { event: 'transaction', data: '{"a":1}', id: '7' },
      { event: 'message', data: 'x\ny', id: '7' },
    ]);
  });
  it('handles CRLF and CR line ends, also split between chunks', () => {
    expect(parse(['id: 1\r', '\nevent: transaction\r\ndata: a\r\r'])).toEqual([{ event: 'transaction', data: 'a', id: '1' }]);
  });
  it('reassembles lines and UTF-8 characters split anywhere', () => {
    const bytes = new TextEncoder().encode('event: transaction\ndata: {"d":"GH₵ 12.50"}\n\n');
    const chunks = Array.from(bytes, (b) => new Uint8Array([b]));
    expect(parse(chunks)).toEqual([{ event: 'transaction', data: '{"d":"GH₵ 12.50"}', id: null }]);
  });
  it('does not dispatch an event without data or an unfinished one', () => {
    expect(parse(['event: transaction\n\n', 'data: half'])).toEqual([]);
  });
});
