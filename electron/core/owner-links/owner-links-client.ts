/**
 * The till's requests for the owner's phone links: `POST|GET|PATCH /v1/owner-links`,
 * `POST /v1/owner-links/<id>/invitation` and `DELETE /v1/owner-links/<id>[/devices/<id>]` on the environment's relay, with that environment's till token.
 * The relay's answers are validated before anything reaches a screen; the link's token is handed back
 * once (inside the URL) and never stored nor logged here.
 */
import { request } from 'undici';
import { z } from 'zod';
import type { Environment } from '../../../shared/domain.js';
import { ownerLinkViewSchema, type OwnerLinkView } from '../../../shared/ipc/contract.js';
import { CoreError } from '../errors.js';

export type RelayAccess = { relayUrl: string; relayToken: string };

const createdSchema = z.object({ link: ownerLinkViewSchema, path: z.string().regex(/^\/owner#t=ov_[A-Za-z0-9_-]{43}$/) });
const listSchema = z.object({ links: z.array(ownerLinkViewSchema) });

async function call(access: RelayAccess, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  let res;
  try {
    res = await request(new URL(path, access.relayUrl), {
      method,
      headers: { authorization: `Bearer ${access.relayToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
  } catch (err) {
    throw new CoreError('INTERNAL', `The relay cannot be reached (${(err as Error).message}). Check the relay URL in Settings.`);
  }
  const text = await res.body.text();
  if (res.statusCode === 401) throw new CoreError('SETTINGS_INVALID', 'The relay refused this till’s relay token: check it in Settings.');
  if (res.statusCode === 404) throw new CoreError('NOT_FOUND', 'The relay does not know that link, or is too old for phone links.');
  if (res.statusCode >= 400) {
    let message = `The relay answered ${res.statusCode}`;
    try {
      message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
    } catch {
      /* not JSON */
    }
    throw new CoreError(res.statusCode === 400 ? 'INVALID_REQUEST' : 'INTERNAL', message);
  }
  return text ? (JSON.parse(text) as unknown) : null;
}

export async function createLink(
  access: RelayAccess,
  input: { label: string; environment: Environment; timeZone: string },
): Promise<{ link: OwnerLinkView; url: string }> {
  const parsed = createdSchema.safeParse(await call(access, 'POST', '/v1/owner-links', input));
  if (!parsed.success) throw new CoreError('INTERNAL', 'The relay answered a link this till cannot read.');
  return { link: parsed.data.link, url: new URL(parsed.data.path, access.relayUrl).toString() };
}

export async function listLinks(access: RelayAccess): Promise<OwnerLinkView[]> {
  const parsed = listSchema.safeParse(await call(access, 'GET', '/v1/owner-links'));
  if (!parsed.success) throw new CoreError('INTERNAL', 'The relay answered a list this till cannot read.');
  return parsed.data.links;
}

export async function revokeLink(access: RelayAccess, id: string): Promise<void> {
  await call(access, 'DELETE', `/v1/owner-links/${encodeURIComponent(id)}`);
}

export async function revokeDevice(access: RelayAccess, id: string, deviceId: string): Promise<void> {
  await call(access, 'DELETE', `/v1/owner-links/${encodeURIComponent(id)}/devices/${encodeURIComponent(deviceId)}`);
}

const invitedSchema = z.object({ path: createdSchema.shape.path, expiresAt: z.string() });

/** A new one-time invitation for link `id`: its URL (the QR code's), shown once and never kept here. */
export async function inviteAgain(access: RelayAccess, id: string): Promise<{ url: string; expiresAt: string }> {
  const parsed = invitedSchema.safeParse(await call(access, 'POST', `/v1/owner-links/${encodeURIComponent(id)}/invitation`));
  if (!parsed.success) throw new CoreError('INTERNAL', 'The relay answered an invitation this till cannot read.');
  return { url: new URL(parsed.data.path, access.relayUrl).toString(), expiresAt: parsed.data.expiresAt };
}

/** The shop's time zone changed: every link of this till's merchant counts its days in `timeZone` from now on. */
export async function setLinksTimeZone(access: RelayAccess, timeZone: string): Promise<number> {
  const parsed = z.object({ changed: z.number() }).safeParse(await call(access, 'PATCH', '/v1/owner-links', { timeZone }));
  if (!parsed.success) throw new CoreError('INTERNAL', 'The relay answered a change this till cannot read.');
  return parsed.data.changed;
}
