/** The owner's phone links: `owner-links:*`, the owner only (shared/ipc/roles.ts). */
import { ENVIRONMENTS, type Environment } from '../../../shared/domain.js';
import type { OwnerLinkView } from '../../../shared/ipc/contract.js';
import type { CoreContext } from '../core-context.js';
import type { ChannelsOf, HandlerMap } from '../dispatcher.js';
import { CoreError } from '../errors.js';
import { createLink, inviteAgain, listLinks, revokeDevice, revokeLink, setLinksTimeZone, type RelayAccess } from '../owner-links/index.js';

/** What the links' channels use of the core: each environment's relay settings, the shop's time zone, the log. */
export type OwnerLinksDeps = Pick<CoreContext, 'configFor' | 'settings' | 'log'>;

const NAME: Record<Environment, string> = { test: 'TEST', live: 'LIVE' };

export function ownerLinksHandlers(ctx: OwnerLinksDeps): HandlerMap<ChannelsOf<'owner-links'>> {
  async function access(environment: Environment): Promise<RelayAccess> {
    const config = await ctx.configFor(environment);
    if (!config.relayUrl || !config.relayToken) {
      throw new CoreError('SETTINGS_INVALID', `Set the ${NAME[environment]} relay URL and relay token in Settings first.`);
    }
    return { relayUrl: config.relayUrl, relayToken: config.relayToken };
  }
  return {
    'owner-links:create': async ({ label, environment }) => {
      const env = environment ?? ctx.settings.settings.active;
      const made = await createLink(await access(env), { label, environment: env, timeZone: ctx.settings.settings.timeZone });
      ctx.log.info('owner_link.created', { id: made.link.id, environment: env });
      return made;
    },
    'owner-links:list': async () => {
      const links = new Map<string, OwnerLinkView>();
      const problems: string[] = [];
      for (const env of ENVIRONMENTS) {
        const config = await ctx.configFor(env);
        if (!config.relayUrl || !config.relayToken) continue;
        try {
          const access = { relayUrl: config.relayUrl, relayToken: config.relayToken };
          const zone = ctx.settings.settings.timeZone;
          const found = await listLinks(access);
          // The shop's zone changed while this relay could not be told (owner-links/time-zone.ts): put it right now.
          if (found.some((l) => !l.revokedAt && l.timeZone !== zone)) {
            await setLinksTimeZone(access, zone);
            for (const l of found) l.timeZone = zone;
          }
          for (const l of found) links.set(l.id, l);
        } catch (err) {
          problems.push(`${NAME[env]}: ${(err as Error).message}`);
        }
      }
      return { links: [...links.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt)), problems };
    },
    'owner-links:revoke': async ({ id, environment }) => {
      await revokeLink(await access(environment), id);
      ctx.log.info('owner_link.revoked', { id, environment });
      return { ok: true as const };
    },
    'owner-links:revokeDevice': async ({ id, deviceId, environment }) => {
      await revokeDevice(await access(environment), id, deviceId);
      ctx.log.info('owner_link.device_revoked', { id, deviceId, environment });
      return { ok: true as const };
    },
    'owner-links:invite': async ({ id, environment }) => {
      const invited = await inviteAgain(await access(environment), id);
      ctx.log.info('owner_link.invited', { id, environment });
      return invited;
    },
  };
}
