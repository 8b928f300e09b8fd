/**
 * A cap on open connections that a flood cannot turn against real clients. At the cap a new
 * connection replaces the oldest one that is idle or has not finished sending its request headers
 * (what a slow-header flood holds); only when every connection is busy with a request is the new
 * one refused. Sockets are closed at once, so a flood never uses up the process's open files.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RelayMetrics } from '../ops/index.js';

export function guardConnections(server: Server, maxConnections: number, metrics: RelayMetrics): void {
  // A Set iterates in insertion order: the oldest connection first.
  const open = new Set<Socket>();
  const busy = new WeakSet<Socket>();

  server.on('connection', (socket: Socket) => {
    if (open.size >= maxConnections) {
      let victim: Socket | undefined;
      for (const s of open) {
        if (!busy.has(s)) {
          victim = s;
          break;
        }
      }
      if (!victim) {
        metrics.connectionsShed.inc({ which: 'new' });
        socket.destroy();
        return;
      }
      metrics.connectionsShed.inc({ which: 'oldest_idle' });
      open.delete(victim);
      victim.destroy();
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    busy.add(req.socket);
    res.once('close', () => busy.delete(req.socket));
  });
}
