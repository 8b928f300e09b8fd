/**
 * An incremental parser for text/event-stream (the WHATWG rules that matter here): lines end in
 * LF, CRLF or CR; `event`, `data` (joined with LF), `id` (ignored when it contains NUL); comment
 * lines start with ':'; a blank line dispatches. Chunks may split lines and UTF-8 characters anywhere.
 */
export type SseMessage = { event: string; data: string; id: string | null };

export class SseParser {
  private buffer = '';
  private readonly decoder = new TextDecoder('utf-8');
  private event = '';
  private data: string[] = [];
  private id: string | null = null;
  private sawCr = false;

  constructor(private readonly onMessage: (message: SseMessage) => void) {}

  push(chunk: Uint8Array): void {
    let text = this.decoder.decode(chunk, { stream: true });
    if (this.sawCr && text.startsWith('\n')) text = text.slice(1);
    this.sawCr = false;
    this.buffer += text;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i += 1) {
      const ch = this.buffer[i];
      if (ch !== '\n' && ch !== '\r') continue;
      this.line(this.buffer.slice(start, i));
      if (ch === '\r') {
        if (i + 1 < this.buffer.length) {
          if (this.buffer[i + 1] === '\n') i += 1;
        } else {
          this.sawCr = true;
        }
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) this.onMessage({ event: this.event || 'message', data: this.data.join('\n'), id: this.id });
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.id = value;
  }
}
