/**
 * The admin API's routes, under /admin/v1/ (listener.ts: the listener and authentication). Each one
 * asks the store's Administration, which on PostgreSQL runs the same functions as the CLI, so a change
 * is checked and audited the same way; the actor is `admin:<number of the admin token>`. A path matches
 * a route whole: `POST …/suspend/anything` is 404, never a suspension. Lists come a page at a time
 * (paging.ts).
 */
import { z } from 'zod';
import type { Administration } from '../../store/index.js';
import { TenantError } from '../../store/pg/index.js';
import { paged, type PageAnswer } from './paging.js';

export type AdminRequest = {
  method: string;
  /** The path after /admin/v1/, split on '/' and decoded. */
  parts: string[];
  query: URLSearchParams;
  body: () => Promise<unknown>;
  actor: string;
};

export type AdminAnswer = PageAnswer;

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

/** /admin/v1/merchants/<id>/<sub>: the routes of one merchant's keys, tokens, links, usage and audit. */
async function merchantPart(ctx: AdminContext, req: AdminRequest, id: string, sub: string): Promise<AdminAnswer | null> {
  const { admin } = ctx;
  const m = req.method;
  if ((sub === 'suspend' || sub === 'resume') && m === 'POST') {
    const changed = await admin.setSuspended(id, sub === 'suspend', req.actor);
    return ok({ id, suspended: sub === 'suspend', changed });
  }
  if (sub === 'log-id' && m === 'POST') return ok({ id, logId: (await admin.renewLogIds({ merchantId: id }, req.actor)).get(id) });
  if (sub === 'keys' && m === 'GET')
    return paged(
      req.query,
      (page) => admin.listKeys(id, page),
      (k) => k.publicId,
    );
  if (sub === 'keys' && m === 'POST') {
    const b = await parseBody(req, keyBody);
    await admin.addKey(id, b.publicId, b.secret, req.actor);
    return ok({ publicId: b.publicId, merchantId: id }, 201);
  }
  if (sub === 'tokens' && m === 'GET')
    return paged(
      req.query,
      (page) => admin.listTokens(id, page),
      (t) => `${t.merchantId} ${t.label}`,
    );
  if (sub === 'tokens' && m === 'POST') {
    const b = await parseBody(req, tokenBody);
    // Shown once, in this answer; only its hash is kept.
    return ok({ merchantId: id, label: b.label, token: await admin.createToken(id, b.label, req.actor) }, 201);
  }
  if (sub === 'owner-links' && m === 'GET')
    return paged(
      req.query,
      (page) => admin.listOwnerLinks(id, page),
      (l) => l.id,
    );
  if (sub === 'usage' && m === 'GET') {
    await admin.requireMerchant(id);
    return ok({ merchantId: id, days: await admin.usage(id, intParam(req.query, 'days', 30, 366)) });
  }
  if (sub === 'audit' && m === 'GET')
    return paged(
      req.query,
      (page) => admin.listAudit({ merchantId: id, ...page }),
      (a) => String(a.id),
    );
  return null;
}

/** /admin/v1/merchants/<id>/… */
async function merchantRoute(ctx: AdminContext, req: AdminRequest, id: string, rest: string[]): Promise<AdminAnswer | null> {
  const { admin } = ctx;
  const m = req.method;
  if (rest.length === 0 && m === 'GET') {
    await admin.requireMerchant(id);
    return ok((await admin.listMerchants(id))[0]);
  }
  if (rest.length === 0 && m === 'DELETE') {
    const discardUnread = req.query.has('discardUnread') ? intParam(req.query, 'discardUnread', 1, 999_999) : undefined;
    return ok({ removed: id, ...(await admin.removeMerchant(id, req.actor, { discardUnread })) });
  }
  if (rest.length === 1) return merchantPart(ctx, req, id, rest[0]!);
  if (rest.length === 2 && rest[0] === 'tokens' && m === 'DELETE') {
    const label = rest[1]!;
    if (!(await admin.revokeToken(id, label, req.actor))) throw new TenantError(`${id} has no till labelled "${label}"`);
    return ok({ merchantId: id, revoked: label });
  }
  return null;
}

/** Answers one admin request, or null when no route matches. */
export async function adminRoute(ctx: AdminContext, req: AdminRequest): Promise<AdminAnswer | null> {
  const { admin } = ctx;
  const [head, id, ...rest] = req.parts;
  const m = req.method;
  const whole = id === undefined;
  if (head === 'health' && whole && m === 'GET') return ok(await ctx.health());
  if (head === 'merchants' && whole) {
    if (m === 'GET')
      return paged(
        req.query,
        (page) => admin.listMerchants(undefined, page),
        (x) => x.id,
      );
    if (m === 'POST') {
      const b = await parseBody(req, merchantBody);
      await admin.addMerchant(b.id, b.name, req.actor);
      return ok((await admin.listMerchants(b.id))[0], 201);
    }
  }
  if (head === 'merchants' && id !== undefined) return merchantRoute(ctx, req, id, rest);
  const single = id !== undefined && rest.length === 0;
  if (head === 'keys' && single && m === 'DELETE') {
    const removed = await admin.removeKey(id, req.actor);
    if (!removed) throw new TenantError(`No key ${id}`);
    return ok({ publicId: id, merchantId: removed.merchantId, removed: true });
  }
  if (head === 'tokens' && whole && m === 'GET')
    return paged(
      req.query,
      (page) => admin.listTokens(undefined, page),
      (t) => `${t.merchantId} ${t.label}`,
    );
  if (head === 'owner-links' && single && m === 'DELETE') {
    // The owner's phone link: turned off as the operator (its open pages say so), audited.
    const { link, changed } = await admin.revokeOwnerLink(id, req.actor);
    return ok({ ...link, changed });
  }
  if (head === 'log-id' && whole && m === 'POST') return ok({ logIds: Object.fromEntries(await admin.renewLogIds('all', req.actor)) });
  if (head === 'audit' && whole && m === 'GET')
    return paged(
      req.query,
      (page) => admin.listAudit(page),
      (a) => String(a.id),
    );
  return null;
}
