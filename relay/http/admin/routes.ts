/**
 * The admin API's routes, under /admin/v1/ (listener.ts: the listener and authentication). Each one
 * asks the store's Administration, which on PostgreSQL runs the same functions as the CLI, so a change
 * is checked and audited the same way; the actor is `admin:<label of the admin token>`.
 */
import { z } from 'zod';
import type { Administration } from '../../store/index.js';
import { TenantError } from '../../store/pg/index.js';

export type AdminRequest = {
  method: string;
  /** The path after /admin/v1/, split on '/' and decoded. */
  parts: string[];
  query: URLSearchParams;
  body: () => Promise<unknown>;
  actor: string;
};

export type AdminAnswer = { status: number; body: unknown };

export type AdminContext = { admin: Administration; health: () => Promise<unknown> };

const ok = (body: unknown, status = 200): AdminAnswer => ({ status, body });

const merchantBody = z.object({ id: z.string(), name: z.string().optional() }).strict();
const keyBody = z.object({ publicId: z.string(), secret: z.string() }).strict();
const tokenBody = z.object({ label: z.string() }).strict();

/** Parses a request body with `schema`; a bad one is a TenantError naming the field (answered 400). */
async function parseBody<T>(req: AdminRequest, schema: z.ZodType<T>): Promise<T> {
  const r = schema.safeParse(await req.body());
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new TenantError(`${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
  }
  return r.data;
}

function intParam(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const text = query.get(name);
  if (text === null) return fallback;
  if (!/^[0-9]{1,6}$/.test(text) || Number(text) < 1 || Number(text) > max) throw new TenantError(`${name}: must be 1-${max}`);
  return Number(text);
}

/** /admin/v1/merchants/<id>/… */
async function merchantRoute(ctx: AdminContext, req: AdminRequest, id: string, rest: string[]): Promise<AdminAnswer | null> {
  const { admin } = ctx;
  const [sub, arg] = rest;
  const m = req.method;
  if (sub === undefined && m === 'GET') {
    await admin.requireMerchant(id);
    return ok((await admin.listMerchants(id))[0]);
  }
  if (sub === undefined && m === 'DELETE') {
    const discardUnread = req.query.has('discardUnread') ? intParam(req.query, 'discardUnread', 1, 999_999) : undefined;
    return ok({ removed: id, ...(await admin.removeMerchant(id, req.actor, { discardUnread })) });
  }
  if ((sub === 'suspend' || sub === 'resume') && m === 'POST') {
    const changed = await admin.setSuspended(id, sub === 'suspend', req.actor);
    return ok({ id, suspended: sub === 'suspend', changed });
  }
  if (sub === 'log-id' && m === 'POST') return ok({ id, logId: (await admin.renewLogIds({ merchantId: id }, req.actor)).get(id) });
  if (sub === 'keys' && arg === undefined && m === 'GET') return ok(await admin.listKeys(id));
  if (sub === 'keys' && arg === undefined && m === 'POST') {
    const b = await parseBody(req, keyBody);
    await admin.addKey(id, b.publicId, b.secret, req.actor);
    return ok({ publicId: b.publicId, merchantId: id }, 201);
  }
  if (sub === 'tokens' && arg === undefined && m === 'GET') return ok(await admin.listTokens(id));
  if (sub === 'tokens' && arg === undefined && m === 'POST') {
    const b = await parseBody(req, tokenBody);
    // Shown once, in this answer; only its hash is kept.
    return ok({ merchantId: id, label: b.label, token: await admin.createToken(id, b.label, req.actor) }, 201);
  }
  if (sub === 'tokens' && arg !== undefined && m === 'DELETE') {
    if (!(await admin.revokeToken(id, arg, req.actor))) throw new TenantError(`${id} has no till labelled "${arg}"`);
    return ok({ merchantId: id, revoked: arg });
  }
  if (sub === 'owner-links' && arg === undefined && m === 'GET') return ok(await admin.listOwnerLinks(id));
  if (sub === 'usage' && m === 'GET') {
    await admin.requireMerchant(id);
    return ok({ merchantId: id, days: await admin.usage(id, intParam(req.query, 'days', 30, 366)) });
  }
  if (sub === 'audit' && m === 'GET') return ok(await admin.listAudit({ merchantId: id, limit: intParam(req.query, 'limit', 100, 1000) }));
  return null;
}

/** Answers one admin request, or null when no route matches. */
export async function adminRoute(ctx: AdminContext, req: AdminRequest): Promise<AdminAnswer | null> {
  const { admin } = ctx;
  const [head, id, ...rest] = req.parts;
  const m = req.method;
  if (head === 'health' && id === undefined && m === 'GET') return ok(await ctx.health());
  if (head === 'merchants' && id === undefined) {
    if (m === 'GET') return ok(await admin.listMerchants());
    if (m === 'POST') {
      const b = await parseBody(req, merchantBody);
      await admin.addMerchant(b.id, b.name, req.actor);
      return ok((await admin.listMerchants(b.id))[0], 201);
    }
  }
  if (head === 'merchants' && id !== undefined) return merchantRoute(ctx, req, id, rest);
  if (head === 'keys' && id !== undefined && rest.length === 0 && m === 'DELETE') {
    const removed = await admin.removeKey(id, req.actor);
    if (!removed) throw new TenantError(`No key ${id}`);
    return ok({ publicId: id, merchantId: removed.merchantId, removed: true });
  }
  if (head === 'tokens' && id === undefined && m === 'GET') return ok(await admin.listTokens());
  if (head === 'owner-links' && id !== undefined && rest.length === 0 && m === 'DELETE') {
    // The owner's phone link: turned off as the operator (its open pages say so), audited.
    const { link, changed } = await admin.revokeOwnerLink(id, req.actor);
    return ok({ ...link, changed });
  }
  if (head === 'log-id' && id === undefined && m === 'POST') {
    return ok({ logIds: Object.fromEntries(await admin.renewLogIds('all', req.actor)) });
  }
  if (head === 'audit' && id === undefined && m === 'GET')
    return ok(await admin.listAudit({ limit: intParam(req.query, 'limit', 100, 1000) }));
  return null;
}
