/**
 * The statuses of the relay's refusals, in one place for every caller's routes (docs/provider-contract.md,
 * "Refusals: one tenant's answer never looks like a dead instance").
 *
 * A proxy in front of several instances (relay/docs/proxies.md) counts 502, 503 and 504 as a failing
 * instance and then sets the instance aside for every merchant. So an answer about one merchant (suspended,
 * over its share, one of its rows refused by the database) never uses them; 503 is kept for what is true of
 * the whole instance (shutting down, its database unreachable, a pool that is the instance's own).
 */
import type { ServerResponse } from 'node:http';
import { sendError } from '../../shared/http-util.js';

/**
 * A suspended merchant, on every route (deliveries, tills, streams, owner links). 403: the proxies do
 * not count it, and the service retries any non-2xx 8 times, so a merchant resumed within that window
 * loses no delivery.
 */
export const MERCHANT_SUSPENDED = {
  status: 403,
  code: 'MERCHANT_SUSPENDED',
  message: 'This merchant is suspended on this relay',
} as const;

export function sendSuspended(res: ServerResponse, headers: Record<string, string> = {}): void {
  sendError(res, MERCHANT_SUSPENDED.status, MERCHANT_SUSPENDED.code, MERCHANT_SUSPENDED.message, headers);
}

/** A merchant or a token over one of its shares: 429 with the seconds to wait, and the limit named in the message. */
export const RATE_LIMITED = { status: 429, code: 'RATE_LIMITED' } as const;

export function sendRateLimited(
  res: ServerResponse,
  message: string,
  retryAfterSeconds: number,
  headers: Record<string, string> = {},
): void {
  sendError(res, RATE_LIMITED.status, RATE_LIMITED.code, message, {
    ...headers,
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
}

/**
 * One merchant's commit refused by the database (its own rows: a value the database will not keep, a lock
 * held on its log). 500: nginx's proxy_next_upstream in proxies.md does not count it and Caddy's health
 * check does not see it, so the instance stays in for everyone else; the service retries it like any non-2xx.
 */
export const TENANT_COMMIT_FAILED = { status: 500, code: 'INTERNAL', message: 'Could not store the delivery; retry later' } as const;

/** Trouble of the whole instance (shutting down, database unreachable, the instance's own pools full): 503. */
export function sendInstanceUnavailable(
  res: ServerResponse,
  message: string,
  retryAfterSeconds: number,
  headers: Record<string, string> = {},
): void {
  sendError(res, 503, 'INTERNAL', message, { ...headers, 'retry-after': String(retryAfterSeconds) });
}
