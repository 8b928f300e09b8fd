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
