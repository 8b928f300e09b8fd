/**
 * A network thermal printer on loopback for the tests: it answers the real-time status queries
 * (DLE EOT n) like an Epson-compatible printer and keeps every byte it receives. `mode` makes it
 * out of paper or silent (takes the connection, never answers: a busy, stuck or slow printer).
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type FakePrinterMode = 'ok' | 'out-of-paper' | 'silent';

export type FakePrinter = {
  port: number;
  mode: FakePrinterMode;
  /** Each connection's bytes, once the till has closed it. */
  jobs: Buffer[];
  /** Resolves with the next finished job. */
  nextJob(timeoutMs?: number): Promise<Buffer>;
  close(): Promise<void>;
};

const ONLINE = 0x12;

export async function startFakePrinter(mode: FakePrinterMode = 'ok'): Promise<FakePrinter> {
  const sockets = new Set<Socket>();
  const waiting: Array<(job: Buffer) => void> = [];
  const printer: FakePrinter = {
    port: 0,
    mode,
    jobs: [],
    nextJob: (timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no print job arrived')), timeoutMs);
        waiting.push((job) => {
          clearTimeout(timer);
          resolve(job);
        });
      }),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (printer.mode === 'silent') return;
      for (let i = 0; i + 2 < chunk.length; i += 1) {
        if (chunk[i] !== 0x10 || chunk[i + 1] !== 0x04) continue;
        const n = chunk[i + 2];
        const paperOut = printer.mode === 'out-of-paper';
        socket.write(Uint8Array.from([n === 4 && paperOut ? ONLINE | 0x60 : n === 2 && paperOut ? ONLINE | 0x20 : ONLINE]));
      }
    });
    socket.on('error', () => undefined);
    socket.on('end', () => {
      const job = Buffer.concat(chunks);
      printer.jobs.push(job);
      waiting.shift()?.(job);
      socket.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  printer.port = (server.address() as AddressInfo).port;
  return printer;
}
