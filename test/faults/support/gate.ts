/**
 * A gate: a TCP proxy on loopback in front of a server (the payment service, the relay), whose mode a
 * test changes while connections run through it. Modes act on every byte from the moment they are set,
 * on open connections as on new ones, as a network between two machines would:
 *   pass          bytes flow both ways.
 *   refuse        nothing listens there any more (the service's machine up, its server down): open connections
 *                 are reset and a new one is refused (ECONNREFUSED) before any byte is sent, so the client
 *                 knows its request never left.
 *   reset         the far end takes each connection and cuts it at once: open connections are reset, and a
 *                 new one is reset as it opens, so the client cannot tell whether its request got through.
 *   drop          a silent network: connections stay open and nothing arrives either way; bytes sent
 *                 meanwhile wait (TCP retransmits) and arrive when the gate passes again.
 *   delay         every chunk arrives `ms` later, in order.
 *   lose-request  what the client sends never reaches the server ('hang': the connection stays open;
 *                 'close': it is reset once the client has sent something).
 *   lose-answer   the request reaches the server (it takes effect), its answer never comes back
 *                 ('hang' or 'close' as above, once the server has answered).
 */
import { readFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';

export type GateMode =
  | { kind: 'pass' }
  | { kind: 'refuse' }
  | { kind: 'reset' }
  | { kind: 'drop' }
  | { kind: 'delay'; ms: number }
  | { kind: 'lose-request'; then: 'hang' | 'close' }
  | { kind: 'lose-answer'; then: 'hang' | 'close' };

export type Gate = {
  /** http://127.0.0.1:<the gate's port> */
  url: string;
  port: number;
  mode(): GateMode;
  /** Resolves once the mode holds for new connections (after 'refuse', the gate listens again). */
  set(mode: GateMode): Promise<void>;
  /** Connections open through the gate now. */
  open(): number;
  /** Chunks the gate has kept from the server (lose-request) or the client (lose-answer) so far. */
  lost(): number;
  close(): Promise<void>;
};

/** A chunk of bytes, or null for the end of what that side sends (its FIN), which a fault holds back as well. */
type Bytes = Buffer | null;
type Pair = { client: Socket; server: Socket; held: Array<{ to: Socket; chunk: Bytes }> };

function deliver(to: Socket, chunk: Bytes): void {
  if (to.destroyed) return;
  if (chunk === null) to.end();
  else to.write(chunk);
}

export async function startGate(target: { host?: string; port: number }): Promise<Gate> {
  let mode: GateMode = { kind: 'pass' };
  let lost = 0;
  const pairs = new Set<Pair>();

  const reset = (pair: Pair) => {
    pair.client.resetAndDestroy();
    pair.server.destroy();
  };

  /** One chunk on its way from `from` to `to`, as the mode says. */
  const carry = (pair: Pair, to: Socket, chunk: Bytes, towardServer: boolean) => {
    switch (mode.kind) {
      case 'pass':
        deliver(to, chunk);
        return;
      case 'refuse':
      case 'reset':
        reset(pair);
        return;
      case 'drop':
        pair.held.push({ to, chunk });
        return;
      case 'delay':
        setTimeout(() => deliver(to, chunk), mode.ms);
        return;
      case 'lose-request':
      case 'lose-answer': {
        const losing = mode.kind === 'lose-request' ? towardServer : !towardServer;
        if (!losing) {
          deliver(to, chunk);
          return;
        }
        if (chunk !== null) lost += 1;
        if (mode.then === 'close') reset(pair);
      }
    }
  };

  // Half-open allowed on both sides: a client that ends its request first still gets its answer.
  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    if (mode.kind === 'reset') {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect({ host: target.host ?? '127.0.0.1', port: target.port, allowHalfOpen: true });
    const pair: Pair = { client, server: upstream, held: [] };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => carry(pair, upstream, chunk, true));
    upstream.on('data', (chunk: Buffer) => carry(pair, client, chunk, false));
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('end', () => carry(pair, upstream, null, true));
    upstream.on('end', () => carry(pair, client, null, false));
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  const port = await listenOutsideEphemeral(server);
  let listening = true;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    mode: () => mode,
    async set(next) {
      mode = next;
      if (next.kind === 'refuse' || next.kind === 'reset') for (const pair of pairs) reset(pair);
      if (next.kind === 'pass') for (const pair of pairs) for (const { to, chunk } of pair.held.splice(0)) deliver(to, chunk);
      if (next.kind === 'refuse' && listening) {
        // Closing the listening socket is what makes the kernel refuse: connections already made stay ours.
        listening = false;
        server.close();
      } else if (next.kind !== 'refuse' && !listening) {
        listening = true;
        await listenOn(server, port);
      }
    },
    open: () => pairs.size,
    lost: () => lost,
    async close() {
      for (const pair of pairs) reset(pair);
      if (listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function listenOn(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * The gate stops listening while it refuses and must get its port back after: a port below the kernel's
 * ephemeral range is never handed to an outgoing connection meanwhile, as one from port 0 could be.
 */
async function listenOutsideEphemeral(server: Server): Promise<number> {
  const ephemeralFrom = ephemeralRangeStart();
  for (let tries = 0; ; tries += 1) {
    const port = 10_000 + Math.floor(Math.random() * (ephemeralFrom - 10_000));
    try {
      await listenOn(server, port);
      return port;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || tries >= 50) throw error;
    }
  }
}

/** Linux says where its ephemeral ports begin; elsewhere, the IANA range's start (macOS's default). */
function ephemeralRangeStart(): number {
  try {
    const from = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (from > 11_000) return from;
  } catch {
    // not Linux
  }
  return 49_152;
}
