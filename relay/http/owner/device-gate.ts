/**
 * Who may read: the phone's device credential (its cookie), looked up by hash (cached for a second, so a
 * phone or link turned off elsewhere stops within a second), checked against its link, the till token that
 * made the link (gone: the link is off, as the operator's doing) and its merchant's suspension; then the
 * link's rate limit, and "last seen", which also moves the credential's end on (it slides). Wrong
 * credentials and invitations are limited per client (guard.ts) before any look-up.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../../../shared/http-util.js';
import { hashRelayToken } from '../../ops/index.js';
import type { LogFn, RelayConfig, RelayMetrics } from '../../ops/index.js';
import { DEVICE_DAYS, revokedMessage, type OwnerDevice, type OwnerLink, type RelayStore } from '../../store/index.js';
import { MERCHANT_SUSPENDED, sendRateLimited } from '../refusals.js';
import { clientAddress, GuessLimiter, LinkRate, type GuessRefusal } from './guard.js';

/** What the gate needs (the viewer API's deps are these and more). */
export type GateDeps = {
  store: RelayStore;
  log: LogFn;
  now: () => number;
  /** The instance's config, read at each request (it changes on reload): each link's requests, each client's unknown credentials. */
  getConfig: () => RelayConfig;
  metrics: RelayMetrics;
  /** Addresses of the operator's proxies, whose X-Forwarded-For names the client. */
  trustedProxies: () => readonly string[];
};
export type Access = { link: OwnerLink; device: OwnerDevice };
type Found = { device: OwnerDevice; link: OwnerLink } | undefined;

/** What an open page of a suspended merchant says (it comes back by itself once resumed). */
export const SUSPENDED_MESSAGE = "The shop's relay access is suspended. This page comes back by itself when it is resumed.";
export const DEVICE_OFF_MESSAGE = 'This phone was turned off at the till. Ask the till for a new link.';
const DEVICE_EXPIRED_MESSAGE = `This phone has not opened the page for ${DEVICE_DAYS} days. Ask the till for a new link.`;

/** Why a device may not read now (an answer for the page), or null when it may. */
export function deviceRefusal(
  deps: Pick<GateDeps, 'store'>,
  found: { device: OwnerDevice; link: OwnerLink },
  nowIso: string,
): { status: 401 | 403; code: string; message: string; revoked?: true; suspended?: true } | null {
  const { device, link } = found;
  if (link.revokedAt) return { status: 401, code: 'UNAUTHENTICATED', message: revokedMessage(link.revokedBy), revoked: true };
  const maker = link.createdByToken ? deps.store.findTill(link.createdByToken) : undefined;
  if (link.createdByToken && !maker) return { status: 401, code: 'UNAUTHENTICATED', message: revokedMessage('operator'), revoked: true };
  if (device.revokedAt) return { status: 401, code: 'UNAUTHENTICATED', message: DEVICE_OFF_MESSAGE, revoked: true };
  if (device.expiresAt <= nowIso) return { status: 401, code: 'UNAUTHENTICATED', message: DEVICE_EXPIRED_MESSAGE, revoked: true };
  if (maker?.suspended)
    return { status: MERCHANT_SUSPENDED.status, code: MERCHANT_SUSPENDED.code, message: SUSPENDED_MESSAGE, suspended: true };
  return null;
}

export class DeviceGate {
  private readonly linkRate: LinkRate;
  private readonly cache = new Map<string, { found: Found; at: number }>();
  private readonly touched = new Map<string, number>();
  readonly guesses: GuessLimiter;
  /** Hashes of credentials that opened a device here: no guess, so never held back by the guessing limits. */
  private readonly known = new Set<string>();

  constructor(private readonly deps: GateDeps) {
    this.guesses = new GuessLimiter(deps.getConfig, deps.now);
    this.linkRate = new LinkRate(deps.getConfig, deps.now);
  }

  private async find(hash: string): Promise<Found> {
    const hit = this.cache.get(hash);
    if (hit && this.deps.now() - hit.at < 1_000) return hit.found;
    const found = await this.deps.store.ownerView.devices.find(hash);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(hash, { found, at: this.deps.now() });
    if (found) {
      if (this.known.size > 10_000) this.known.clear();
      this.known.add(hash);
    }
    return found;
  }

  forget(): void {
    this.cache.clear();
  }

  /** A credential this relay just gave a phone: never a guess. */
  know(credential: string): void {
    if (this.known.size > 10_000) this.known.clear();
    this.known.add(hashRelayToken(credential));
  }

  /** At most once a minute per device: last seen, the credential's end moved on, the link's "last used". */
  private touch({ link, device }: Access): void {
    const now = this.deps.now();
    if (now - (this.touched.get(device.id) ?? 0) < 60_000) return;
    if (this.touched.size > 10_000) this.touched.clear();
    this.touched.set(device.id, now);
    const at = new Date(now).toISOString();
    const failed = (err: unknown) => this.deps.log({ level: 'warn', msg: 'owner_device_touch_failed', error: (err as Error).message });
    this.deps.store.ownerView.devices.touch(device.id, at, deviceExpiry(now)).catch(failed);
    this.deps.store.ownerView.touchLink(link.id, at).catch(failed);
  }

  /** The device of `credential` (a still-valid one: `peek` reads without limits nor touch), or undefined. */
  async peek(credential: string | null): Promise<Access | undefined> {
    if (!credential) return undefined;
    const found = await this.find(hashRelayToken(credential));
    return found && !deviceRefusal(this.deps, found, new Date(this.deps.now()).toISOString()) ? found : undefined;
  }

  /** The device and link of `credential`, or an answer already sent (401, 403 suspended, 429). */
  async authorise(req: IncomingMessage, res: ServerResponse, credential: string | null): Promise<Access | null> {
    const client = clientAddress(req, this.deps.trustedProxies());
    const hash = credential ? hashRelayToken(credential) : null;
    const held = hash && this.known.has(hash) ? null : this.guesses.refusal(client);
    if (held) {
      sendGuessRefused(res, held, this.deps.metrics);
      return null;
    }
    const found = hash ? await this.find(hash) : undefined;
    if (!found) {
      if (hash) this.guesses.missed(client);
      const message = 'This page is not open on this phone: scan a new link from the till';
      sendJson(res, 401, { error: { code: 'UNAUTHENTICATED', message, revoked: false } });
      return null;
    }
    const refusal = deviceRefusal(this.deps, found, new Date(this.deps.now()).toISOString());
    if (refusal) {
      const { status, ...error } = refusal;
      sendJson(res, status, { error });
      return null;
    }
    const wait = this.linkRate.take(found.link.id);
    if (wait > 0) {
      const c = this.deps.getConfig();
      const limit = 'ownerPageRequestsPerSecondPerLink';
      this.deps.metrics.shareRefusals.inc({ limit });
      this.deps.metrics.merchantOwnerRefusals.inc({ merchant: found.link.merchantId, reason: 'link_rate' });
      const message = `Too many requests from this link's phones (${limit} ${c[limit]} after ownerPageRequestBurstPerLink ${c.ownerPageRequestBurstPerLink}); wait and try again`;
      sendRateLimited(res, message, wait);
      return null;
    }
    this.touch(found);
    return found;
  }
}

/** A client past its unknown credentials (guard.ts): 429 naming the limit, counted by it. */
export function sendGuessRefused(res: ServerResponse, held: GuessRefusal, metrics: RelayMetrics): void {
  metrics.clientLimited.inc({ limit: held.limit });
  sendRateLimited(res, held.message, held.retryAfter);
}

/** A device credential used now ends DEVICE_DAYS from now. */
export function deviceExpiry(now: number): string {
  return new Date(now + DEVICE_DAYS * 86_400_000).toISOString();
}
