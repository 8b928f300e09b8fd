/**
 * The noisy-neighbour bench's HTTPS clients, as the service, tills and phones reach a hosted relay: through
 * the proxy's TLS on loopback, trusting the run's self-signed certificate. Connections held open by the
 * hundred (streams that stop reading, owner pages) are bare TLS sockets, the lightest thing that holds one.
 */
import { connect, type TLSSocket } from 'node:tls';
import { Agent } from 'undici';
import { HOST, type Proxy } from '../test/integration/relay/http/proxies.js';

/** Keep-alive HTTPS to the proxies; no body time-out, so an event stream stays open as long as it is read. */
export function tlsAgent(ca: Buffer, connections: number): Agent {
  return new Agent({ connect: { ca, servername: HOST }, connections, bodyTimeout: 0, headersTimeout: 15_000 });
}

/** Counts of answers by status ("error": no answer at all). */
export class Tally {
  private readonly counts = new Map<string, number>();
  add(status: number | 'error'): void {
    const key = String(status);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  get total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }
  count(status: number): number {
    return this.counts.get(String(status)) ?? 0;
  }
  /** "200:1234 429:56", the statuses in order. */
  toString(): string {
    return [...this.counts.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}:${v}`)
      .join(' ');
  }
}

export type HeldSocket = { status: number; socket: TLSSocket };

/**
 * A GET through the proxy on its own TLS connection, resolved with the answer's status once its head has
 * arrived. With `read: false` the socket then stops reading (a till that stops consuming its stream); with
 * `read: true` it reads and drops what comes (a page that stays open). Anything but 200 is closed at once.
 */
export function heldGet(proxy: Proxy, ca: Buffer, path: string, headers: Record<string, string>, read: boolean): Promise<HeldSocket> {
  return new Promise((resolve) => {
    const socket = connect({ host: proxy.host, port: proxy.port, ca, servername: HOST });
    let head = '';
    let settled = false;
    const settle = (status: number) => {
      if (settled) return;
      settled = true;
      if (status !== 200) socket.destroy();
      else if (!read) socket.pause();
      resolve({ status, socket });
    };
    socket.setTimeout(15_000, () => {
      socket.destroy();
      settle(0);
    });
    socket.on('error', () => settle(0));
    socket.on('close', () => settle(0));
    socket.on('data', (chunk: Buffer) => {
      if (settled) return;
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.setTimeout(0);
      settle(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0));
    });
    socket.once('secureConnect', () => {
      const lines = Object.entries({ host: `${HOST}:${proxy.port}`, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
      socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
    });
  });
}

/**
 * One keep-alive HTTPS connection through the proxy that sends requests already written out as bytes, one at a
 * time, and reads back only each answer's status (its body counted off by content-length, never kept): the
 * cheapest client a flood can have, so that on this shared machine the flooding merchant's own client work
 * takes as little as it can of the CPU the relay is measured on.
 */
export class RawHttps {
  private socket: TLSSocket | null = null;
  /** The answer's head, gathered until it is whole. */
  private received: Buffer = Buffer.alloc(0);
  /** Then the answer's status, and the bytes of its body still to come. */
  private answering: { status: number; close: boolean; remaining: number } | null = null;
  private waiting: ((status: number | 'error') => void) | null = null;

  constructor(
    private readonly proxy: Pick<Proxy, 'host' | 'port'>,
    private readonly ca: Buffer,
  ) {}

  /** `POST path` with these headers and body, as bytes ready for `send`. */
  static request(proxy: Pick<Proxy, 'port'>, path: string, headers: Record<string, string>, body: string): Buffer {
    const all = { host: `${HOST}:${proxy.port}`, ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const head = Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`);
    return Buffer.from(`POST ${path} HTTP/1.1\r\n${head.join('')}\r\n${body}`);
  }

  /** `GET path` with these headers, as bytes ready for `send`. */
  static get(proxy: Pick<Proxy, 'port'>, path: string, headers: Record<string, string>): Buffer {
    const head = Object.entries({ host: `${HOST}:${proxy.port}`, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
    return Buffer.from(`GET ${path} HTTP/1.1\r\n${head.join('')}\r\n`);
  }

  /** Sends one request and resolves with its answer's status ('error': the connection failed first). */
  send(bytes: Buffer): Promise<number | 'error'> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.connection().write(bytes);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  private connection(): TLSSocket {
    if (this.socket) return this.socket;
    const socket = connect({ host: this.proxy.host, port: this.proxy.port, ca: this.ca, servername: HOST });
    this.socket = socket;
    this.received = Buffer.alloc(0);
    this.answering = null;
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    const lost = () => {
      if (this.socket === socket) this.socket = null;
      this.answer('error');
    };
    socket.on('error', lost);
    socket.on('close', lost);
    return socket;
  }

  /** The head is gathered; the body (a page can be hundreds of KiB) is only counted off as it passes, never kept. */
  private read(chunk: Buffer): void {
    let rest = chunk;
    if (!this.answering) {
      this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
      const end = this.received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.received.subarray(0, end).toString('latin1');
      this.answering = {
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        close: /\r\nconnection: *close/i.test(head),
        remaining: Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0),
      };
      rest = this.received.subarray(end + 4);
      this.received = Buffer.alloc(0);
    }
    this.answering.remaining -= rest.length;
    if (this.answering.remaining > 0) return;
    const { status, close } = this.answering;
    this.answering = null;
    if (close) this.close();
    this.answer(status);
  }

  private answer(status: number | 'error'): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.(status);
  }
}
