/**
 * A cap on open connections that a flood cannot turn against real clients. At the cap a new
 * connection replaces the oldest one that is idle or has not finished sending its request headers
 * (what a slow-header flood holds); only when every connection is busy with a request is the new
 * one refused. Sockets are closed at once, so a flood never uses up the process's open files. Before
 * all that, one address may hold only its share (maxConnectionsPerClient): a flood from one address
 * cannot fill the cap with requests it never finishes.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RelayMetrics } from '../ops/index.js';
import { PerClient, socketAddress } from './client-limits.js';

/** One address's share (client-limits.ts): the operator's proxies carry many clients and are not counted. */
export type PerClientConnections = { max: () => number; trusted: () => readonly string[] };

export function guardConnections(server: Server, maxConnections: number, metrics: RelayMetrics, perClient: PerClientConnections): void {
  // A Set iterates in insertion order: the oldest connection first.
  const open = new Set<Socket>();
  const busy = new WeakSet<Socket>();
  const byClient = new PerClient();

  server.on('connection', (socket: Socket) => {
    const client = socketAddress(socket.remoteAddress);
    const counted = !perClient.trusted().includes(client);
    if (counted && !byClient.take(client, 1, perClient.max())) {
      metrics.clientLimited.inc({ limit: 'maxConnectionsPerClient' });
      socket.destroy();
      return;
    }
    if (counted) socket.once('close', () => byClient.give(client, 1));
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
