/** Handlers for the owner's phone links (`phone:*`, the owner only: shared/ipc/roles.ts). */
import type { z } from 'zod';
import { ENVIRONMENTS, type Environment } from '../../../shared/domain.js';
import type { IpcContract, IpcResponse, OwnerLinkView } from '../../../shared/ipc/contract.js';
import type { CoreContext } from '../core-context.js';
import { CoreError } from '../errors.js';
import { createLink, listLinks, revokeLink, type RelayAccess } from './index.js';

type Channel = 'phone:createLink' | 'phone:listLinks' | 'phone:revokeLink';
type Handlers = { [C in Channel]: (request: z.output<IpcContract[C]['request']>) => Promise<IpcResponse<C>> };

const NAME: Record<Environment, string> = { test: 'TEST', live: 'LIVE' };

export function ownerLinksHandlers(ctx: CoreContext): Handlers {
  async function access(environment: Environment): Promise<RelayAccess> {
    const config = await ctx.configFor(environment);
    if (!config.relayUrl || !config.relayToken) {
      throw new CoreError('SETTINGS_INVALID', `Set the ${NAME[environment]} relay URL and relay token in Settings first.`);
    }
    return { relayUrl: config.relayUrl, relayToken: config.relayToken };
  }
  return {
    'phone:createLink': async ({ label, environment }) => {
      const env = environment ?? ctx.settings.settings.active;
      const made = await createLink(await access(env), { label, environment: env, timeZone: ctx.settings.settings.timeZone });
      ctx.log.info('owner_link.created', { id: made.link.id, environment: env });
      return made;
    },
    'phone:listLinks': async () => {
      const links = new Map<string, OwnerLinkView>();
      const problems: string[] = [];
      for (const env of ENVIRONMENTS) {
        const config = await ctx.configFor(env);
        if (!config.relayUrl || !config.relayToken) continue;
        try {
          for (const l of await listLinks({ relayUrl: config.relayUrl, relayToken: config.relayToken })) links.set(l.id, l);
        } catch (err) {
          problems.push(`${NAME[env]}: ${(err as Error).message}`);
        }
      }
      return { links: [...links.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt)), problems };
    },
    'phone:revokeLink': async ({ id, environment }) => {
      await revokeLink(await access(environment), id);
      ctx.log.info('owner_link.revoked', { id, environment });
      return { ok: true as const };
    },
  };
}
