/** Small HTTP helpers shared by the relay's routes. */
import type { ServerResponse } from 'node:http';
import { errorBody, type ErrorCode } from '../shared/wire/errors.js';

export type LogFn = (line: Record<string, unknown>) => void;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function sendError(
  res: ServerResponse,
  status: number,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, errorBody(code, message), headers);
}

/** JSON lines on stderr, with a timestamp. */
export function defaultLog(line: Record<string, unknown>): void {
  process.stderr.write(`${JSON.stringify({ ts: new Date().toISOString(), ...line })}\n`);
}
