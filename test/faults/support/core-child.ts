/**
 * The till core in a process of its own, so a test can kill -9 it, pause it (SIGSTOP) and start it
 * again on the same data folder, as a shop's till dies or sleeps. Run with `node --import tsx`; its
 * options come as JSON in MOMO_FAULT_TILL. It serves the browser bridge on loopback:
 *   POST /answer {channel, payload}  -> the core's envelope (what Electron IPC carries)
 *   GET  /events                     -> every core event, as server-sent events
 *   POST /clock {aheadMs}            -> moves the core's clock (its `now`) that far ahead of real time
 * and prints one line, {"port": N}, when it is ready. The OS keychain is the real one (as the app's).
 */
import { createServer, type ServerResponse } from 'node:http';
import { createTillCore } from '../../../electron/core/index.js';
import { IPC_EVENTS } from '../../../shared/ipc/contract.js';

type ChildOptions = {
  dataDir: string;
  aheadMs?: number;
  retryDelaysMs?: number[];
  relay?: { initialBackoffMs?: number; maxBackoffMs?: number; heartbeatTimeoutMs?: number };
  http?: { connectTimeoutMs?: number; responseTimeoutMs?: number };
};

const options = JSON.parse(process.env.MOMO_FAULT_TILL ?? '{}') as ChildOptions;
let aheadMs = options.aheadMs ?? 0;
const verbose = process.env.MOMO_FAULT_VERBOSE === '1';

const core = await createTillCore({
  dataDir: options.dataDir,
  embedded: false,
  now: () => Date.now() + aheadMs,
  ...(options.retryDelaysMs ? { retryDelaysMs: options.retryDelaysMs } : {}),
  ...(options.relay ? { relay: options.relay } : {}),
  ...(options.http ? { http: options.http } : {}),
  log: (line) => {
    if (verbose) process.stderr.write(`${JSON.stringify(line)}\n`);
  },
});

const streams = new Set<ServerResponse>();
for (const event of IPC_EVENTS) {
  core.on(event, (payload) => {
    const frame = `data: ${JSON.stringify({ event, payload })}\n\n`;
    for (const res of streams) res.write(frame);
  });
}

async function body(req: NodeJS.ReadableStream): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/events') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(': open\n\n');
    streams.add(res);
    req.on('close', () => streams.delete(res));
    return;
  }
  if (req.method === 'POST' && (req.url === '/answer' || req.url === '/clock')) {
    void body(req).then(async (json) => {
      let answer: unknown;
      if (req.url === '/clock') {
        aheadMs = (json as { aheadMs: number }).aheadMs;
        answer = { aheadMs };
      } else {
        const { channel, payload } = json as { channel: string; payload: unknown };
        answer = await core.answer(channel, payload);
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
    return;
  }
  res.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
});

process.on('SIGTERM', () => {
  for (const res of streams) res.end();
  server.close();
  void core.close().then(() => process.exit(0));
});
