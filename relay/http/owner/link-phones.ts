/**
 * A link's phones, as the till sees and manages them: the list (each link with its devices, named from
 * their user agents, first and last seen), a new one-time invitation for a link (another phone, or the
 * same phone again), and one phone turned off. A link whose till token is gone is off (the operator
 * ended that token): the list records it so, as the operator's doing.
 */
import type { ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { sendError, sendJson } from '../../../shared/http-util.js';
import { hashRelayToken } from '../../ops/index.js';
import type { LogFn, RelayConfig, RelayMetrics } from '../../ops/index.js';
import { INVITATION_MINUTES, type OwnerDevice, type OwnerLink, type RelayStore, type TillIdentity } from '../../store/index.js';

/** What the phones' routes need (owner-links-api.ts passes its own deps). */
type PhonesDeps = {
  store: RelayStore;
  /** maxOwnerLinksPerMerchant, read at each request (it changes on reload). */
  getConfig: () => Pick<RelayConfig, 'maxOwnerLinksPerMerchant'>;
  metrics: RelayMetrics;
  onChanged: () => void;
  onDeviceRevoked: (id: string) => void;
  log: LogFn;
  now: () => number;
};

/** An invitation made now may be exchanged until this time. */
export function invitationExpiry(now: number): string {
  return new Date(now + INVITATION_MINUTES * 60_000).toISOString();
}

const deviceView = (d: OwnerDevice) => ({
  id: d.id,
  name: d.name,
  createdAt: d.createdAt,
  lastSeenAt: d.lastSeenAt,
  expiresAt: d.expiresAt,
  revokedAt: d.revokedAt,
});

/** A link as the till lists it (never a token nor a hash). */
export function linkView(l: OwnerLink, devices: OwnerDevice[]) {
  return {
    id: l.id,
    label: l.label,
    environment: l.environment,
    timeZone: l.timeZone,
    createdBy: l.createdBy,
    createdAt: l.createdAt,
    lastUsedAt: l.lastUsedAt,
    revokedAt: l.revokedAt,
    invitation: { expiresAt: l.inviteExpiresAt, usedAt: l.inviteUsedAt },
    devices: devices.filter((d) => d.linkId === l.id).map(deviceView),
  };
}

export async function list(deps: PhonesDeps, res: ServerResponse, till: TillIdentity): Promise<void> {
  const { ownerView } = deps.store;
  const links = await ownerView.listLinks(till.merchantId);
  const at = new Date(deps.now()).toISOString();
  for (const l of links) {
    if (l.revokedAt || !l.createdByToken || deps.store.findTill(l.createdByToken)) continue;
    await ownerView.revokeLink(till.merchantId, l.id, at, 'operator');
    Object.assign(l, { revokedAt: at, revokedBy: 'operator' });
  }
  const devices = await ownerView.devices.list(till.merchantId);
  sendJson(res, 200, { links: links.map((l) => linkView(l, devices)) });
}

/** The merchant already has `max` links on: a link made, or one made to count again by a new invitation, is refused. */
export function sendLinksFull(deps: Pick<PhonesDeps, 'metrics'>, res: ServerResponse, till: TillIdentity, max: number): void {
  // A count, not a rate: waiting changes nothing until a link is turned off, so 409 (no proxy counts it), not 429.
  deps.metrics.shareRefusals.inc({ limit: 'maxOwnerLinksPerMerchant' });
  deps.metrics.merchantOwnerRefusals.inc({ merchant: till.merchantId, reason: 'links_full' });
  const message = `This shop already has ${max} phone links on (maxOwnerLinksPerMerchant ${max}): turn one off in Settings first`;
  sendError(res, 409, 'CONFLICT', message);
}

/** A new invitation for a link; one that no longer counts (expired unused, no phone) counts again, so it is held to the merchant's count. */
export async function invite(deps: PhonesDeps, res: ServerResponse, till: TillIdentity, linkId: string): Promise<void> {
  const token = `ov_${randomBytes(32).toString('base64url')}`;
  const now = deps.now();
  const expiresAt = invitationExpiry(now);
  const max = deps.getConfig().maxOwnerLinksPerMerchant;
  const invitation = { tokenHash: hashRelayToken(token), expiresAt, createdByToken: till.tokenHash, at: new Date(now).toISOString() };
  const answer = await deps.store.ownerView.devices.invite(till.merchantId, linkId, invitation, max);
  if (answer === 'unknown') return sendError(res, 404, 'NOT_FOUND', 'No such link, or it is turned off');
  if (answer === 'full') return sendLinksFull(deps, res, till, max);
  deps.onChanged();
  deps.log({ level: 'info', msg: 'owner_link_invited', merchantId: till.merchantId, link: linkId });
  sendJson(res, 201, { token, path: `/owner#t=${token}`, expiresAt });
}

export async function revokeDevice(deps: PhonesDeps, res: ServerResponse, till: TillIdentity, linkId: string, id: string) {
  const found = await deps.store.ownerView.devices.revoke(till.merchantId, linkId, id, new Date(deps.now()).toISOString());
  if (!found) return sendError(res, 404, 'NOT_FOUND', 'No such phone on that link');
  deps.onDeviceRevoked(id);
  deps.log({ level: 'info', msg: 'owner_device_revoked', merchantId: till.merchantId, link: linkId, device: id });
  res.writeHead(204, { 'cache-control': 'no-store' }).end();
}
