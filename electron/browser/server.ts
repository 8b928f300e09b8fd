/**
 * Browser mode's server, on 127.0.0.1 only: the built renderer, the launch link, and the core's two
 * functions over HTTP (`answer` as POST /momo/invoke, `on` as the event stream /momo/events). The core's
 * dispatcher stays the one gate: this server only decides whether the request comes from our page
 * (request-guard.ts), then hands `{ channel, payload }` to `answer` as Electron's IPC handler does.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IPC_EVENT_NAMES } from '../../shared/ipc/channels.js';
import type { TillCore } from '../core/index.js';
import { CONTENT_SECURITY_POLICY } from '../main/csp.js';
import { bridgeSource, BRIDGE_PATH, EVENTS_PATH, INVOKE_PATH, withBridge } from './page-bridge.js';
import { checkHost, checkPost, checkSession, cookieName, sameSecret, type Refusal } from './request-guard.js';
import { readAsset } from './assets.js';

/** What the server uses of the core: the same two functions Electron's shell uses. */
export type CoreSurface = Pick<TillCore, 'answer' | 'on'>;

export const LAUNCH_PATH = '/momo/launch';
export const CONTROL_HEADER = 'x-momo-control';
const MAX_BODY = 1024 * 1024;

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

export type BrowserServer = {
  /** The origin, http://127.0.0.1:<port>. */
  origin: string;
  port: number;
  /** A fresh one-time launch link (the first visit trades it for the session cookie). */
  launchUrl(): string;
  /** The secret a second `npm start` shows to get a launch link (kept in the user-only runtime file). */
  control: string;
  /** Open event streams. */
  streams(): number;
  /** Resolves once a page has its event stream open (events sent before then reach no page). */
  streaming(): Promise<void>;
  close(): Promise<void>;
};

const secret = () => randomBytes(32).toString('base64url');

function refuse(res: ServerResponse, { status, reason }: Refusal): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' }).end(`Refused: ${reason}.\n`);
}

function send(res: ServerResponse, type: string, body: string | Buffer): void {
  res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': type }).end(body);
}

/** POST /momo/invoke from our page: `{ channel, payload }` to the core's `answer`, its envelope back. */
async function invoke(core: CoreSurface, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return refuse(res, { status: 405, reason: 'method not allowed' });
  const postRefusal = checkPost(req.headers);
  if (postRefusal) return refuse(res, postRefusal);
  const body = await readBody(req);
  if (body === null) return refuse(res, { status: 413, reason: 'too large' });
  let call: { channel?: unknown; payload?: unknown };
  try {
    call = JSON.parse(body) as typeof call;
  } catch {
    return refuse(res, { status: 400, reason: 'not JSON' });
  }
  const envelope = await core.answer(typeof call?.channel === 'string' ? call.channel : '', call?.payload);
  send(res, 'application/json', JSON.stringify(envelope));
}

/** The core's events to every open event stream (the page's `on`). */
function eventStreams(core: CoreSurface) {
  const streams = new Set<ServerResponse>();
  let opened: () => void = () => undefined;
  const firstOpen = new Promise<void>((ok) => {
    opened = ok;
  });
  const offs = IPC_EVENT_NAMES.map((name) =>
    core.on(name, (payload: unknown) => {
      const frame = `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
      for (const stream of streams) stream.write(frame);
    }),
  );
  // Keeps idle streams open through anything that closes silent connections.
  const heartbeat = setInterval(() => {
    for (const stream of streams) stream.write(': beat\n\n');
  }, 15_000);
  heartbeat.unref();
  return {
    open(req: IncomingMessage, res: ServerResponse) {
      res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream', connection: 'keep-alive' });
      res.write(': open\n\n');
      streams.add(res);
      opened();
      req.on('close', () => streams.delete(res));
    },
    count: () => streams.size,
    firstOpen: () => firstOpen,
    close() {
      clearInterval(heartbeat);
      for (const off of offs) off();
      for (const stream of streams) stream.end();
    },
  };
}

export async function startBrowserServer(core: CoreSurface, rendererDir: string, port = 0): Promise<BrowserServer> {
  const session = secret();
  const control = secret();
  const launchTokens = new Set<string>();
  const streams = eventStreams(core);
  let boundPort = 0;
  let origin = '';
  const launch = () => {
    const token = secret();
    launchTokens.add(token);
    return `${origin}/?launch=${token}`;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const hostRefusal = checkHost(req.headers, boundPort);
    if (hostRefusal) return refuse(res, hostRefusal);
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (req.method === 'POST' && url.pathname === LAUNCH_PATH) {
      if (!sameSecret(req.headers[CONTROL_HEADER] as string | undefined, control))
        return refuse(res, { status: 403, reason: 'not the till' });
      return send(res, 'application/json', JSON.stringify({ url: launch() }));
    }
    const token = url.searchParams.get('launch');
    if (req.method === 'GET' && token !== null) {
      if (!launchTokens.delete(token))
        return refuse(res, { status: 403, reason: 'this launch link was used already; run npm start again' });
      const cookie = `${cookieName(boundPort)}=${session}; HttpOnly; SameSite=Strict; Path=/`;
      res.writeHead(303, { ...SECURITY_HEADERS, 'set-cookie': cookie, location: '/' }).end();
      return;
    }
    const sessionRefusal = checkSession(req.headers, boundPort, session);
    if (sessionRefusal) return refuse(res, sessionRefusal);
    if (url.pathname === INVOKE_PATH) return invoke(core, req, res);
    if (url.pathname === EVENTS_PATH && req.method === 'GET') return streams.open(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, { status: 405, reason: 'method not allowed' });
    if (url.pathname === BRIDGE_PATH) return send(res, 'text/javascript; charset=utf-8', bridgeSource());
    const asset = await readAsset(rendererDir, url.pathname);
    if (!asset) return refuse(res, { status: 404, reason: 'not found' });
    send(res, asset.type, asset.isIndex ? withBridge(asset.body.toString('utf8')) : asset.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) refuse(res, { status: 500, reason: 'the till could not answer' });
      else res.end();
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', ok);
  });
  boundPort = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${boundPort}`;
  return {
    origin,
    port: boundPort,
    launchUrl: launch,
    control,
    streams: streams.count,
    streaming: streams.firstOpen,
    close: () =>
      new Promise<void>((ok) => {
        streams.close();
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
