/**
 * The relay's defences against hostile and careless clients, as config fields (config.ts
 * merges them in). docs/security.md says what each one protects against.
 */
import { z } from 'zod';
import { SHARE_ENV_VARS, shareFields } from './shares.js';

export const limitFields = {
  /** Most simultaneous connections; beyond it the oldest idle or unfinished one is dropped. */
  maxConnections: z.number().int().min(8).max(100_000).default(1_024),
  /** A request's headers must arrive within this (Node's default is 60 s). */
  headersTimeoutMs: z.number().int().min(100).max(60_000).default(10_000),
  /** A whole request must arrive within this (Node's default is 300 s; the service gives up after 15 s). */
  requestTimeoutMs: z.number().int().min(200).max(300_000).default(20_000),
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: z.number().int().min(100).max(60_000).default(5_000),
  /** Requests served on one keep-alive connection before it is closed (0: no limit). */
  maxRequestsPerSocket: z.number().int().min(0).max(1_000_000).default(1_000),
  /** Most bytes all webhook bodies still arriving may hold together; 503 beyond. */
  maxPendingBodyBytes: z
    .number()
    .int()
    .min(64 * 1024)
    .max(1024 * 1024 * 1024)
    .default(32 * 1024 * 1024),
  /** An event stream whose reader takes nothing for this long is ended; its till reconnects and resumes from its cursor. */
  streamStallSeconds: z.number().min(0.1).max(600).default(30),
  /** A page of GET /v1/transactions stops (hasMore: true) once its events pass this many bytes; it always holds one. */
  maxPageBytes: z
    .number()
    .int()
    .min(16 * 1024)
    .max(64 * 1024 * 1024)
    .default(1024 * 1024),
  /** Connections one client address may hold (the operator's trustedProxies are not counted); beyond, a new one is closed at once. */
  maxConnectionsPerClient: z.number().int().min(1).max(100_000).default(128),
  /** Bytes of webhook bodies still arriving that one client may hold (a share of maxPendingBodyBytes, never less than one whole body); 429 beyond. */
  maxPendingBodyBytesPerClient: z
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(4 * 1024 * 1024),
  /** A body sent before any credential is proved (a webhook's, POST /v1/owner/session's) must arrive within this (or requestTimeoutMs if shorter); 408 beyond. */
  unauthenticatedBodyTimeoutMs: z.number().int().min(100).max(300_000).default(5_000),
  /** Repeated warnings (refused deliveries, bad till tokens) are logged once per reason per this interval, with a count. */
  warningSummarySeconds: z.number().min(0.05).max(3_600).default(60),
  ...shareFields,
  /** The operator's proxies (as the relay sees their connections): only their X-Forwarded-For names a client for per-client limits. */
  trustedProxies: z
    .array(z.union([z.ipv4(), z.ipv6()]))
    .max(64)
    .default([]),
};

export const LIMIT_ENV_VARS = {
  RELAY_MAX_CONNECTIONS: 'maxConnections',
  RELAY_HEADERS_TIMEOUT_MS: 'headersTimeoutMs',
  RELAY_REQUEST_TIMEOUT_MS: 'requestTimeoutMs',
  RELAY_KEEP_ALIVE_TIMEOUT_MS: 'keepAliveTimeoutMs',
  RELAY_MAX_REQUESTS_PER_SOCKET: 'maxRequestsPerSocket',
  RELAY_MAX_PENDING_BODY_BYTES: 'maxPendingBodyBytes',
  RELAY_WARNING_SUMMARY_SECONDS: 'warningSummarySeconds',
  RELAY_STREAM_STALL_SECONDS: 'streamStallSeconds',
  RELAY_MAX_PAGE_BYTES: 'maxPageBytes',
  ...SHARE_ENV_VARS,
  RELAY_MAX_CONNECTIONS_PER_CLIENT: 'maxConnectionsPerClient',
  RELAY_MAX_PENDING_BODY_BYTES_PER_CLIENT: 'maxPendingBodyBytesPerClient',
  RELAY_UNAUTHENTICATED_BODY_TIMEOUT_MS: 'unauthenticatedBodyTimeoutMs',
} as const;

type Limits = { [K in keyof typeof limitFields]: z.infer<(typeof limitFields)[K]> };

/** Cross-field rules: what Node requires of its timeouts, and room for at least one whole body. */
export function checkLimits(config: Limits & { maxBodyBytes: number }, ctx: z.RefinementCtx): void {
  if (config.maxPendingBodyBytesPerMerchant < config.maxBodyBytes) {
    ctx.addIssue({ code: 'custom', path: ['maxPendingBodyBytesPerMerchant'], message: 'must be at least maxBodyBytes' });
  }
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    ctx.addIssue({ code: 'custom', path: ['headersTimeoutMs'], message: 'must not exceed requestTimeoutMs' });
  }
  if (config.maxPendingBodyBytes < config.maxBodyBytes) {
    ctx.addIssue({ code: 'custom', path: ['maxPendingBodyBytes'], message: 'must be at least maxBodyBytes' });
  }
}
