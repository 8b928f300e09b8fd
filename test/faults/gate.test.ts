/** The gate itself, on a real HTTP server behind it: each mode does to the bytes what it says, on open connections too. */
import { createServer, request, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startGate, type Gate } from './support/gate.js';
import { waitFor } from '../support/wait-for.js';

let server: Server;
let gate: Gate;
/** Requests the server has received (and acted on), by path. */
const received: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(req.url ?? '');
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first\n');
      streams.push(res);
      return;
    }
    res.end(`answer to ${req.url}`);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  gate = await startGate({ port: (server.address() as { port: number }).port });
});
afterEach(async () => {
  await gate.set({ kind: 'pass' });
  received.length = 0;
});
afterAll(async () => {
  await gate.close();
  server.closeAllConnections();
  await new Promise<void>((ok) => server.close(() => ok()));
});
const streams: Array<import('node:http').ServerResponse> = [];

type Outcome = { answer: string } | { error: string } | { pending: true };

/** One GET through the gate (a new connection each time); settles with what came back within `ms`. */
function get(path: string, ms = 1_500): Promise<Outcome> {
  return new Promise((ok) => {
    const timer = setTimeout(() => {
      req.destroy();
      ok({ pending: true });
    }, ms);
    const req = request(`${gate.url}${path}`, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        clearTimeout(timer);
        ok({ answer: body });
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      ok({ error: error.code ?? error.message });
    });
    req.end();
  });
}

describe('a gate in front of a server', () => {
  it('pass: the answer comes back', async () => {
    expect(await get('/a')).toEqual({ answer: 'answer to /a' });
    expect(received).toEqual(['/a']);
  });

  /** A stream held open through the gate; `closed()` tells once the gate has cut it. */
  async function openStream(): Promise<{ closed: () => boolean }> {
    const lines: string[] = [];
    let closed = false;
    const open = request(`${gate.url}/stream`, { agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => lines.push(c));
      res.on('error', () => (closed = true));
      res.on('close', () => (closed = true));
    });
    open.on('error', () => (closed = true));
    open.end();
    await waitFor(() => lines.length > 0, 5_000, 'the stream');
    return { closed: () => closed };
  }

  it('refuse: a new connection is refused before any byte is sent, an open one is reset; pass again: it connects', async () => {
    const stream = await openStream();
    await gate.set({ kind: 'refuse' });
    await waitFor(stream.closed, 5_000, 'the open stream closed');
    expect(await get('/b')).toEqual({ error: 'ECONNREFUSED' });
    expect(received).toEqual(['/stream']);
    await gate.set({ kind: 'pass' });
    expect(await get('/b2')).toEqual({ answer: 'answer to /b2' });
  });

  it('reset: a new connection is taken and cut as it opens (the request may have left), and so is an open one', async () => {
    const stream = await openStream();
    await gate.set({ kind: 'reset' });
    await waitFor(stream.closed, 5_000, 'the open stream closed');
    expect(await get('/b')).toEqual({ error: 'ECONNRESET' });
    expect(received).toEqual(['/stream']);
  });

  it('drop: nothing arrives either way and nothing closes; it all arrives once the gate passes again', async () => {
    const lines: string[] = [];
    const open = request(`${gate.url}/stream`, { agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => lines.push(c));
    });
    open.end();
    await waitFor(() => lines.length > 0, 5_000, 'the stream');
    await gate.set({ kind: 'drop' });
    streams.at(-1)?.write('second\n');
    const silent = get('/c', 1_000);
    expect(await silent).toEqual({ pending: true });
    expect(received).toEqual(['/stream']); // the request never reached the server
    expect(lines).toEqual(['first\n']);
    await gate.set({ kind: 'pass' });
    await waitFor(() => lines.join('').includes('second'), 5_000, 'the held bytes');
    open.destroy();
  });

  it('delay: the answer comes, later', async () => {
    await gate.set({ kind: 'delay', ms: 400 });
    const started = Date.now();
    expect(await get('/d', 5_000)).toEqual({ answer: 'answer to /d' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(800); // the request's way and the answer's
  });

  it('lose-request: the server never sees it; the client waits (hang) or is reset (close)', async () => {
    await gate.set({ kind: 'lose-request', then: 'hang' });
    expect(await get('/e', 1_000)).toEqual({ pending: true });
    await gate.set({ kind: 'lose-request', then: 'close' });
    expect(await get('/f')).toEqual({ error: 'ECONNRESET' });
    expect(received).toEqual([]);
    expect(gate.lost()).toBeGreaterThanOrEqual(2);
  });

  it('lose-answer: the server acts on the request, its answer never comes back', async () => {
    await gate.set({ kind: 'lose-answer', then: 'hang' });
    expect(await get('/g', 1_000)).toEqual({ pending: true });
    await gate.set({ kind: 'lose-answer', then: 'close' });
    expect(await get('/h')).toEqual({ error: 'ECONNRESET' });
    expect(received).toEqual(['/g', '/h']);
  });
});
