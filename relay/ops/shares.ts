/**
 * Each merchant's and each till token's share of what a relay holds for all of them: reads in progress
 * and their rate, the owner's page streams, links and each link's reads, and bodies still arriving; and, before
 * any credential, each client's tries of owner credentials the relay does not know. At a share the tenant is
 * answered 429 with Retry-After (409 for the count of links, which waiting does not change), never a
 * status the proxies count against the instance. relay/docs/limits.md states each with what a tenant sees.
 */
import { z } from 'zod';
import type { RelayMetrics } from './metrics.js';

const count = (max: number, fallback: number) => z.number().int().min(1).max(max).default(fallback);

export const shareFields = {
  /** Reads of the log (GET /v1/transactions…) one till token may have in progress at once. */
  maxReadsInFlightPerToken: count(1_000, 4),
  /** Reads of the log one merchant's tills may have in progress at once. */
  maxReadsInFlightPerMerchant: count(10_000, 8),
  /** Reads a second one till token may make, after its burst. */
  readsPerSecondPerToken: z.number().min(0.01).max(100_000).default(5),
  /** Reads one till token may make at once before readsPerSecondPerToken applies (a till catching up pages back to back). */
  readBurstPerToken: count(100_000, 40),
  /** Reads a second one merchant's tills may make together, after their burst. */
  readsPerSecondPerMerchant: z.number().min(0.01).max(100_000).default(15),
  /** Reads one merchant's tills may make at once before readsPerSecondPerMerchant applies. */
  readBurstPerMerchant: count(100_000, 120),
  /** Events of the log one merchant's tills may be sent a second by pages and by streams reading back (what a read costs is its events). */
  readEventsPerSecondPerMerchant: z.number().min(1).max(10_000_000).default(2_000),
  /** Events one merchant's tills may be sent at once before readEventsPerSecondPerMerchant applies. */
  readEventBurstPerMerchant: count(10_000_000, 2_000),
  /**
   * PostgreSQL: the tills' reads of the log running at once on an instance while they are quick. One by default: reads side by
   * side take the database's cores from the commits, and a quick read holds the next back for about a millisecond. A read
   * still running after 50 ms stops counting (slow ones hold at most half of --pg-pool-size); the rest wait their
   * merchant's turn (relay/docs/limits.md).
   */
  maxDatabaseReads: count(1_000, 1),
  /** PostgreSQL: connections one merchant's reads may hold at once on an instance, quick or slow: its slow reads never fill the pool. */
  maxDatabaseReadsPerMerchant: count(1_000, 1),
  /** Owner's page streams (GET /v1/owner/stream) on an instance, all merchants together; 503 beyond. */
  maxOwnerStreams: count(100_000, 500),
  /** Owner's page streams one merchant may hold open on an instance. */
  maxOwnerStreamsPerMerchant: count(10_000, 10),
  /** Owner's page streams one link (its phones together) may hold open on an instance. */
  maxOwnerStreamsPerLink: count(1_000, 4),
  /** Owner links a merchant may have that are not turned off (and whose invitation is not left to expire unused). */
  maxOwnerLinksPerMerchant: count(10_000, 20),
  /** Requests a second one owner link's phones may make together to the owner page's reads (summary, days, stream), after their burst. */
  ownerPageRequestsPerSecondPerLink: z.number().min(0.01).max(100_000).default(1),
  /** Requests one owner link's phones may make at once before ownerPageRequestsPerSecondPerLink applies (a page opening reads three). */
  ownerPageRequestBurstPerLink: count(100_000, 30),
  /** Invitations and phone cookies the relay does not know that one client address may try a second, after its burst (an owner scans, never types, a link). */
  ownerUnknownCredentialsPerSecondPerClient: z.number().min(0.001).max(1_000).default(0.1),
  /** Unknown invitations and cookies one client address may try before ownerUnknownCredentialsPerSecondPerClient applies. */
  ownerUnknownCredentialBurstPerClient: count(10_000, 10),
  /** Look-ups of invitations and cookies the relay does not know, all clients together, a second: what guessing may cost the store. */
  ownerUnknownCredentialsPerSecond: count(1_000_000, 200),
  /** Relay of many merchants: deliveries a second one merchant's key may have verified and committed on an instance, after its burst. */
  deliveriesPerSecondPerMerchant: z.number().min(0.01).max(1_000_000).default(10),
  /** Relay of many merchants: deliveries one merchant may have at once before deliveriesPerSecondPerMerchant applies (the service's retries after an outage). */
  deliveryBurstPerMerchant: count(10_000_000, 20),
  /** Bytes of webhook bodies still arriving that one merchant's deliveries may hold (at least maxBodyBytes; at most the whole pool, maxPendingBodyBytes). */
  maxPendingBodyBytesPerMerchant: z
    .number()
    .int()
    .min(64 * 1024)
    .max(1024 * 1024 * 1024)
    .default(4 * 1024 * 1024),
};

export const SHARE_ENV_VARS = {
  RELAY_MAX_READS_IN_FLIGHT_PER_TOKEN: 'maxReadsInFlightPerToken',
  RELAY_MAX_READS_IN_FLIGHT_PER_MERCHANT: 'maxReadsInFlightPerMerchant',
  RELAY_READS_PER_SECOND_PER_TOKEN: 'readsPerSecondPerToken',
  RELAY_READ_BURST_PER_TOKEN: 'readBurstPerToken',
  RELAY_READS_PER_SECOND_PER_MERCHANT: 'readsPerSecondPerMerchant',
  RELAY_READ_BURST_PER_MERCHANT: 'readBurstPerMerchant',
  RELAY_READ_EVENTS_PER_SECOND_PER_MERCHANT: 'readEventsPerSecondPerMerchant',
  RELAY_READ_EVENT_BURST_PER_MERCHANT: 'readEventBurstPerMerchant',
  RELAY_MAX_DATABASE_READS: 'maxDatabaseReads',
  RELAY_MAX_DATABASE_READS_PER_MERCHANT: 'maxDatabaseReadsPerMerchant',
  RELAY_MAX_OWNER_STREAMS: 'maxOwnerStreams',
  RELAY_MAX_OWNER_STREAMS_PER_MERCHANT: 'maxOwnerStreamsPerMerchant',
  RELAY_MAX_OWNER_STREAMS_PER_LINK: 'maxOwnerStreamsPerLink',
  RELAY_MAX_OWNER_LINKS_PER_MERCHANT: 'maxOwnerLinksPerMerchant',
  RELAY_OWNER_PAGE_REQUESTS_PER_SECOND_PER_LINK: 'ownerPageRequestsPerSecondPerLink',
  RELAY_OWNER_PAGE_REQUEST_BURST_PER_LINK: 'ownerPageRequestBurstPerLink',
  RELAY_OWNER_UNKNOWN_CREDENTIALS_PER_SECOND_PER_CLIENT: 'ownerUnknownCredentialsPerSecondPerClient',
  RELAY_OWNER_UNKNOWN_CREDENTIAL_BURST_PER_CLIENT: 'ownerUnknownCredentialBurstPerClient',
  RELAY_OWNER_UNKNOWN_CREDENTIALS_PER_SECOND: 'ownerUnknownCredentialsPerSecond',
  RELAY_DELIVERIES_PER_SECOND_PER_MERCHANT: 'deliveriesPerSecondPerMerchant',
  RELAY_DELIVERY_BURST_PER_MERCHANT: 'deliveryBurstPerMerchant',
  RELAY_MAX_PENDING_BODY_BYTES_PER_MERCHANT: 'maxPendingBodyBytesPerMerchant',
} as const;

/** Every limit a tenant can meet, shown in /metrics as relay_limit{limit} so a dashboard can set each use beside its limit. */
const SHOWN_LIMITS = [
  'maxSseClients',
  'maxStreamsPerMerchant',
  'maxStreamsPerToken',
  'maxPendingBodyBytes',
  ...(Object.keys(shareFields) as Array<keyof typeof shareFields>),
] as const;

export function showLimits(metrics: RelayMetrics, config: { [K in (typeof SHOWN_LIMITS)[number]]: number }): void {
  for (const limit of SHOWN_LIMITS) metrics.limits.set(config[limit], { limit });
}
