/**
 * The dashboard: a static page (/dashboard) and its JSON API (/dashboard/api/...). The simulator binds to
 * loopback only; on top of that the dashboard checks the Host header (against DNS rebinding) and every
 * mutation needs the `X-Sandbox-Dashboard: 1` header and, when the browser sends one, a same-origin
 * Origin header (a custom header cannot be sent cross-origin without a CORS preflight, which is never
 * granted), so a web page open in the same browser cannot drive it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { KeyCreationForbidden, MERCHANT_STATUSES, type KeyRow, type MerchantRow, type MerchantStore } from './merchants.js';
import type { Payments, TransactionRow } from './payments.js';
import type { AttemptRow, DeliveryEngine, DeliveryRow } from './deliveries.js';
import { parseJson, readBody, sendError, sendJson } from '../shared/http-util.js';
import { formatAmount } from '../shared/money.js';
import { environmentSchema } from '../shared/domain-schemas.js';
import { describeZodError } from '../shared/zod-error.js';

export type DashboardContext = {
  merchants: MerchantStore;
  payments: Payments;
  deliveries: DeliveryEngine;
  db: import('./db.js').Db;
  port: () => number;
};

const STATIC: Record<string, { file: string; type: string }> = {
  '/dashboard': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/dashboard/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/dashboard/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/dashboard/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function merchantJson(m: MerchantRow, keys: KeyRow[]) {
  return {
    id: m.id,
    name: m.name,
    status: m.status,
    isDemo: m.is_demo === 1,
    createdAt: iso(m.created_at),
    keys: keys.map(keyJson),
  };
}

function keyJson(k: KeyRow) {
  return {
    publicId: k.public_id,
    merchantId: k.merchant_id,
    environment: k.environment,
    secretHint: `sk_${k.environment}_••••${k.secret_last4}`,
    isDemo: k.is_demo === 1,
    createdAt: iso(k.created_at),
    revokedAt: iso(k.revoked_at),
  };
}

function transactionJson(t: TransactionRow, deliveryId: string | null) {
  return {
    reference: t.reference,
    merchantId: t.merchant_id,
    environment: t.environment,
    keyId: t.key_public_id,
    clientReference: t.merchant_ref,
    status: t.status,
    failureReason: t.failure_reason,
    amount: formatAmount(t.amount_pesewas),
    fee: formatAmount(t.status === 'SUCCESS' ? t.fee_pesewas : 0),
    msisdn: t.msisdn,
    network: t.network,
    customerName: t.customer_name,
    description: t.description,
    callbackUrl: t.callback_url,
    outcome: t.outcome,
    networkReports: t.network_reports,
    awaitingTester: t.outcome === 'MANUAL' && t.status === 'PENDING',
    promptExpiresAt: t.status === 'PENDING' ? iso(t.outcome_at) : null,
    createdAt: iso(t.created_at),
    completedAt: iso(t.completed_at),
    deliveryId,
  };
}

function deliveryJson(d: DeliveryRow, attempts: AttemptRow[]) {
  return {
    id: d.id,
    reference: d.reference,
    keyId: d.key_public_id,
    callbackUrl: d.callback_url,
    status: d.status,
    scheduledAttempts: d.scheduled_attempts,
    nextAttemptAt: iso(d.next_attempt_at),
    createdAt: iso(d.created_at),
    attempts: attempts.map((a) => ({
      attemptNo: a.attempt_no,
      manual: a.manual === 1,
      startedAt: iso(a.started_at),
      durationMs: a.duration_ms,
      statusCode: a.status_code,
      error: a.error,
      ok: a.ok === 1,
    })),
  };
}

const statusBody = z.strictObject({ status: z.enum(MERCHANT_STATUSES) });
const keyBody = z.strictObject({ environment: environmentSchema });
const merchantBody = z.strictObject({ name: z.string().trim().min(1, 'name is required').max(80) });

function hostAllowed(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host ?? '';
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(host.toLowerCase());
}

/** The path's segments, decoded; null when one is not valid percent-encoding. */
function decodedParts(path: string): string[] | null {
  try {
    return path.split('/').map(decodeURIComponent);
  } catch {
    return null;
  }
}

export async function handleDashboard(req: IncomingMessage, res: ServerResponse, url: URL, ctx: DashboardContext): Promise<void> {
  const port = ctx.port();
  if (!hostAllowed(req, port)) {
    req.resume();
    return sendError(res, 403, 'FORBIDDEN', 'The dashboard answers only on 127.0.0.1, localhost or [::1]');
  }
  const asset = STATIC[url.pathname];
  if (asset && req.method === 'GET') {
    const text = readFileSync(fileURLToPath(new URL(`./dashboard/${asset.file}`, import.meta.url)));
    res.writeHead(200, {
      'content-type': asset.type,
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'self'; frame-ancestors 'none'",
    });
    res.end(text);
    return;
  }
  if (!url.pathname.startsWith('/dashboard/api/')) {
    req.resume();
    return sendError(res, 404, 'NOT_FOUND', `Nothing at ${url.pathname}`);
  }
  const parts = decodedParts(url.pathname.slice('/dashboard/api/'.length));
  if (!parts) {
    req.resume();
    return sendError(res, 400, 'VALIDATION_ERROR', 'The path is not correctly percent-encoded');
  }

  if (req.method === 'GET') {
    req.resume();
    return handleRead(res, parts, ctx);
  }
  if (req.method !== 'POST') {
    req.resume();
    return sendError(res, 405, 'NOT_FOUND', 'Use GET or POST', { allow: 'GET, POST' });
  }
  const origin = req.headers.origin;
  if (
    req.headers['x-sandbox-dashboard'] !== '1' ||
    (origin !== undefined && !hostAllowed({ headers: { host: origin.replace(/^https?:\/\//, '') } } as IncomingMessage, port))
  ) {
    req.resume();
    return sendError(res, 403, 'FORBIDDEN', 'Dashboard changes need the X-Sandbox-Dashboard: 1 header from the same origin');
  }
  const raw = await readBody(req);
  if (!raw.ok) return sendError(res, 413, 'PAYLOAD_TOO_LARGE', 'Request body is larger than 16 KiB', { connection: 'close' });
  let body: unknown = {};
  if (raw.raw.length > 0) {
    const json = parseJson(raw.raw);
    if (!json.ok) return sendError(res, 400, 'VALIDATION_ERROR', json.message);
    body = json.value;
  }
  return handleWrite(res, parts, body, ctx);
}

function deliveryIdOf(ctx: DashboardContext, reference: string): string | null {
  const row = ctx.db.prepare('SELECT id FROM deliveries WHERE reference = ?').get(reference) as { id: string } | undefined;
  return row?.id ?? null;
}

function handleRead(res: ServerResponse, parts: string[], ctx: DashboardContext): void {
  const [resource, id] = parts;
  if (resource === 'merchants' && parts.length === 1) {
    return sendJson(res, 200, { data: ctx.merchants.listMerchants().map((m) => merchantJson(m, ctx.merchants.listKeys(m.id))) });
  }
  if (resource === 'merchants' && id && parts.length === 2) {
    const m = ctx.merchants.getMerchant(id);
    if (!m) return sendError(res, 404, 'NOT_FOUND', `No merchant ${id}`);
    return sendJson(res, 200, { data: merchantJson(m, ctx.merchants.listKeys(m.id)) });
  }
  if (resource === 'transactions' && parts.length === 1) {
    return sendJson(res, 200, { data: ctx.payments.list().map((t) => transactionJson(t, deliveryIdOf(ctx, t.reference))) });
  }
  if (resource === 'transactions' && id && parts.length === 2) {
    const t = ctx.payments.get(id);
    if (!t) return sendError(res, 404, 'NOT_FOUND', `No transaction ${id}`);
    return sendJson(res, 200, { data: transactionJson(t, deliveryIdOf(ctx, t.reference)) });
  }
  if (resource === 'deliveries' && parts.length === 1) {
    const rows = ctx.db.prepare('SELECT * FROM deliveries ORDER BY created_at DESC, id DESC LIMIT 200').all() as DeliveryRow[];
    return sendJson(res, 200, { data: rows.map((d) => deliveryJson(d, ctx.deliveries.attempts(d.id))) });
  }
  if (resource === 'deliveries' && id && parts.length === 2) {
    const d = ctx.deliveries.get(id);
    if (!d) return sendError(res, 404, 'NOT_FOUND', `No delivery ${id}`);
    return sendJson(res, 200, { data: deliveryJson(d, ctx.deliveries.attempts(d.id)) });
  }
  return sendError(res, 404, 'NOT_FOUND', `No dashboard resource /${parts.join('/')}`);
}

async function handleWrite(res: ServerResponse, parts: string[], body: unknown, ctx: DashboardContext): Promise<void> {
  const [resource, id, action] = parts;
  if (resource === 'merchants' && parts.length === 1) {
    const parsed = merchantBody.safeParse(body);
    if (!parsed.success) return sendError(res, 400, 'VALIDATION_ERROR', describeZodError(parsed.error));
    const m = ctx.merchants.createMerchant(parsed.data.name);
    return sendJson(res, 201, { data: merchantJson(m, []) });
  }
  if (resource === 'merchants' && id && action === 'status' && parts.length === 3) {
    const parsed = statusBody.safeParse(body);
    if (!parsed.success) return sendError(res, 400, 'VALIDATION_ERROR', describeZodError(parsed.error));
    if (!ctx.merchants.getMerchant(id)) return sendError(res, 404, 'NOT_FOUND', `No merchant ${id}`);
    const m = ctx.merchants.setStatus(id, parsed.data.status) as MerchantRow;
    return sendJson(res, 200, { data: merchantJson(m, ctx.merchants.listKeys(m.id)) });
  }
  if (resource === 'merchants' && id && action === 'keys' && parts.length === 3) {
    const parsed = keyBody.safeParse(body);
    if (!parsed.success) return sendError(res, 400, 'VALIDATION_ERROR', describeZodError(parsed.error));
    if (!ctx.merchants.getMerchant(id)) return sendError(res, 404, 'NOT_FOUND', `No merchant ${id}`);
    try {
      const created = ctx.merchants.createKey(id, parsed.data.environment);
      // The one time this secret is shown.
      return sendJson(res, 201, { data: { ...keyJson(created.row), secret: created.secret } });
    } catch (error) {
      if (error instanceof KeyCreationForbidden) return sendError(res, 403, 'FORBIDDEN', error.message);
      throw error;
    }
  }
  if (resource === 'keys' && id && action === 'revoke' && parts.length === 3) {
    if (!ctx.merchants.getKey(id)) return sendError(res, 404, 'NOT_FOUND', `No key ${id}`);
    return sendJson(res, 200, { data: keyJson(ctx.merchants.revokeKey(id) as KeyRow) });
  }
  if (resource === 'transactions' && id && (action === 'authorise' || action === 'decline') && parts.length === 3) {
    const result = ctx.payments.decideByHand(id, action);
    if (!result.ok) return sendError(res, result.status, result.status === 404 ? 'NOT_FOUND' : 'CONFLICT', result.message);
    return sendJson(res, 200, { data: transactionJson(result.row, deliveryIdOf(ctx, id)) });
  }
  if (resource === 'deliveries' && id && action === 'replay' && parts.length === 3) {
    if (!ctx.deliveries.get(id)) return sendError(res, 404, 'NOT_FOUND', `No delivery ${id}`);
    await ctx.deliveries.replay(id);
    const d = ctx.deliveries.get(id) as DeliveryRow;
    return sendJson(res, 200, { data: deliveryJson(d, ctx.deliveries.attempts(id)) });
  }
  return sendError(res, 404, 'NOT_FOUND', `No dashboard action /${parts.join('/')}`);
}
