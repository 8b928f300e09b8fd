/**
 * A door on loopback in front of a server, for what the till must tell apart: `shut`, nothing listens on its
 * port (a connection is refused: the request cannot have reached the server); `lose-answers`, requests reach
 * the server and take effect but no answer comes back; `open`, bytes flow. Shutting also ends the connections
 * through it, so no kept-alive one slips a request past it.
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export type DoorMode = 'open' | 'shut' | 'lose-answers';

export type Door = { url: string; set(mode: DoorMode): Promise<void>; close(): Promise<void> };

export async function openDoor(targetPort: number): Promise<Door> {
  let mode: DoorMode = 'open';
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    track(client);
    track(upstream);
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => (mode === 'lose-answers' ? undefined : client.write(chunk)));
    client.on('end', () => upstream.end());
    upstream.on('end', () => (mode === 'lose-answers' ? undefined : client.end()));
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const shut = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    async set(next) {
      if (next === mode) return;
      if (next === 'shut') await shut();
      else if (mode === 'shut') await listen(port);
      // Answers already kept back stay lost; the connections they were for are ended.
      if (mode === 'lose-answers') for (const s of sockets) s.destroy();
      mode = next;
    },
    close: async () => {
      if (mode !== 'shut') await shut();
    },
  };
}
