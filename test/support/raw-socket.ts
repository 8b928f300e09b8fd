/** Raw TCP to a server under test: for requests no HTTP client would send, and connections left unfinished. */
import { connect, type Socket } from 'node:net';

export function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Sends `text` as is and returns everything the server answers until it closes (or `ms` pass). */
export async function rawExchange(url: string, text: string, ms = 5_000): Promise<string> {
  const socket = await openSocket(url);
  return new Promise((resolve) => {
    let answer = '';
    const timer = setTimeout(() => socket.destroy(), ms);
    socket.setEncoding('utf8').on('data', (c: string) => (answer += c));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('error', () => undefined);
    socket.write(text);
  });
}

/** Resolves with the milliseconds until the server closed `socket` (or null after `ms`). */
export function closedWithin(socket: Socket, ms: number): Promise<number | null> {
  const start = Date.now();
  if (socket.destroyed) return Promise.resolve(0);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - start);
    });
    socket.resume();
  });
}
