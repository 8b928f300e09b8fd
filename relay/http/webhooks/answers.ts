/** How the receiver answers a delivery: its acknowledgement, the code of each refusal, a failed commit. */
import type { ServerResponse } from 'node:http';
import { sendError } from '../../../shared/http-util.js';
import { MERCHANT_SUSPENDED, sendInstanceUnavailable, TENANT_COMMIT_FAILED } from '../refusals.js';

export const ERROR_CODE_OF = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHENTICATED',
  403: MERCHANT_SUSPENDED.code,
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  503: 'INTERNAL',
} as const;

/** A header value safe to log: bounded length, printable characters only. */
export function loggable(value: string | undefined): string | undefined {
  return value === undefined ? undefined : value.slice(0, 80).replace(/[^\x20-\x7e]/g, '?');
}

/** The acknowledgement: fixed headers, small body. */
export function sendAck(res: ServerResponse, seq: number, duplicate: boolean): void {
  const body = `{"received":true,"seq":${seq},"duplicate":${duplicate}}`;
  // An object literal: node:http's fastest path (an array of headers goes through setHeader one by one).
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length, 'cache-control': 'no-store' });
  res.end(body);
}

/** Nothing can commit on this instance: 503. This delivery's own rows: 500, which no proxy counts (refusals.ts). */
export function sendCommitFailed(res: ServerResponse, instanceWide: boolean): void {
  if (instanceWide) sendInstanceUnavailable(res, TENANT_COMMIT_FAILED.message, 5);
  else sendError(res, TENANT_COMMIT_FAILED.status, TENANT_COMMIT_FAILED.code, TENANT_COMMIT_FAILED.message);
}
