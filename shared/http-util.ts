/**
 * HTTP helpers shared by the relay and the sandbox: JSON answers in the spec's error shape
 * (spec 7), request bodies read under a cap, JSON bodies parsed without throwing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorCode } from './wire/errors.js';

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

/**
 * The spec's codes, CONFLICT (the sandbox dashboard's answer to an action a transaction's state forbids) and
 * MERCHANT_SUSPENDED (the relay's answer for a suspended merchant, relay/http/refusals.ts).
 */
export type HttpErrorCode = ErrorCode | 'CONFLICT' | 'MERCHANT_SUSPENDED';

/** `{"error":{"code","message"}}` (spec 7). */
export function sendError(
  res: ServerResponse,
  status: number,
  code: HttpErrorCode,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: { code, message } }, headers);
}

/** Enough for any JSON request of the sandbox's API and dashboard. */
export const MAX_BODY_BYTES = 16 * 1024;

export type BodyResult = { ok: true; raw: Buffer } | { ok: false; tooLarge: true };

/** Reads the body up to `limit` bytes; beyond it, stops keeping bytes and reports tooLarge. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve({ ok: false, tooLarge: true });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? { ok: false, tooLarge: true } : { ok: true, raw: Buffer.concat(chunks) }));
    req.on('error', reject);
  });
}

/** Parses a JSON body without throwing. */
export function parseJson(raw: Buffer): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(raw.toString('utf8')) as unknown };
  } catch (error) {
    return { ok: false, message: `Request body is not valid JSON: ${(error as Error).message}` };
  }
}
