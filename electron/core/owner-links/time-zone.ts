/**
 * The owner's phone links follow the shop's time zone. A link's days are counted in the
 * zone the relay holds for it; when the owner changes the till's time zone in Settings, the till tells
 * each environment's relay, which moves every link of the merchant to it (their open pages use it from
 * their next request). Best effort, as a relay may be offline: a failure is logged, and the zone is
 * sent again whenever the owner opens the phone links' list (`owner-links:list`), where a link still showing
 * another zone is put right. Decision and reasons: docs/security.md, "The owner's phone link".
 */
import { ENVIRONMENTS, type Environment } from '../../../shared/domain.js';
import { setLinksTimeZone } from './owner-links-client.js';

/** What it needs of the core: each environment's relay settings, and the log. */
export type TimeZoneDeps = {
  configFor(environment: Environment): Promise<{ relayUrl?: string | null; relayToken?: string | null }>;
  log: { info(event: string, fields?: Record<string, unknown>): void; warn(event: string, fields?: Record<string, unknown>): void };
};

/** Sends `timeZone` to every relay this till has settings for; resolves with what could not be done (never rejects). */
export async function sendLinksTimeZone(ctx: TimeZoneDeps, timeZone: string): Promise<string[]> {
  const problems: string[] = [];
  for (const environment of ENVIRONMENTS) {
    try {
      const config = await ctx.configFor(environment);
      if (!config.relayUrl || !config.relayToken) continue;
      const changed = await setLinksTimeZone({ relayUrl: config.relayUrl, relayToken: config.relayToken }, timeZone);
      ctx.log.info('owner_link.time_zone', { environment, timeZone, changed });
    } catch (err) {
      ctx.log.warn('owner_link.time_zone_failed', { environment, error: (err as Error).message });
      problems.push(`${environment.toUpperCase()}: ${(err as Error).message}`);
    }
  }
  return problems;
}
