/**
 * The service's API (spec 4, 5): every /v1 endpoint authenticates first (401 UNAUTHENTICATED),
 * then POST /v1/payments/initialize and GET /v1/accounts/resolve.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MerchantStore } from './merchants.js';
import type { Payments } from './payments.js';
import { parseJson, readBody, sendError, sendJson } from '../shared/http-util.js';
import { resolveAccountName } from './names.js';
import { isNetwork } from '../shared/domain.js';
import { tryNormaliseMsisdn } from '../shared/phone.js';

export type ApiContext = { merchants: MerchantStore; payments: Payments };

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, ctx: ApiContext): Promise<void> {
  const auth = ctx.merchants.authenticate(header(req, 'authorization'), header(req, 'x-service-merchant-id'));
  if (!auth.ok) {
    req.resume();
    sendError(res, 401, 'UNAUTHENTICATED', auth.message, { 'www-authenticate': 'Bearer' });
    return;
  }

  if (url.pathname === '/v1/payments/initialize') {
    if (req.method !== 'POST') return methodNotAllowed(req, res, 'POST');
    const contentType = header(req, 'content-type') ?? '';
    if (!/^application\/json\b/i.test(contentType)) {
      req.resume();
      sendError(res, 400, 'VALIDATION_ERROR', 'Content-Type must be application/json');
      return;
    }
    const body = await readBody(req);
    if (!body.ok) {
      sendError(res, 413, 'PAYLOAD_TOO_LARGE', 'Request body is larger than 16 KiB', { connection: 'close' });
      return;
    }
    const json = parseJson(body.raw);
    if (!json.ok) return sendError(res, 400, 'VALIDATION_ERROR', json.message);
    if (json.value === null || typeof json.value !== 'object' || Array.isArray(json.value)) {
      return sendError(res, 400, 'VALIDATION_ERROR', 'Request body must be a JSON object');
    }
    const result = ctx.payments.initialize(auth, json.value);
    switch (result.kind) {
      case 'created':
        return sendJson(res, 202, result.body);
      case 'replayed':
        return sendJson(res, 200, result.body, { 'idempotent-replayed': 'true' });
      case 'invalid':
        return sendError(res, 400, 'VALIDATION_ERROR', result.message);
      case 'duplicate':
        return sendError(res, 409, 'DUPLICATE_REFERENCE', result.message);
    }
  }

  if (url.pathname === '/v1/accounts/resolve') {
    if (req.method !== 'GET') return methodNotAllowed(req, res, 'GET');
    req.resume();
    const msisdnParam = url.searchParams.get('msisdn');
    const network = url.searchParams.get('network');
    if (!msisdnParam) return sendError(res, 400, 'VALIDATION_ERROR', 'msisdn is required');
    const phone = tryNormaliseMsisdn(msisdnParam);
    if (!phone.ok) return sendError(res, 400, 'VALIDATION_ERROR', `msisdn: ${phone.error}`);
    if (!network) return sendError(res, 400, 'VALIDATION_ERROR', 'network is required');
    if (!isNetwork(network)) {
      return sendError(res, 400, 'VALIDATION_ERROR', 'network: must be MTN, TELECEL or AIRTELTIGO');
    }
    const name = resolveAccountName(phone.msisdn);
    if (!name) return sendError(res, 404, 'ACCOUNT_NOT_FOUND', `No ${network} mobile-money account for ${phone.msisdn}`);
    return sendJson(res, 200, { data: { msisdn: phone.msisdn, network, name } });
  }

  req.resume();
  sendError(res, 404, 'NOT_FOUND', `No endpoint ${req.method ?? ''} ${url.pathname}`);
}

function methodNotAllowed(req: IncomingMessage, res: ServerResponse, allow: string): void {
  req.resume();
  // 405 is not in the project's code list; NOT_FOUND with an Allow header says the same thing.
  sendError(res, 405, 'NOT_FOUND', `Use ${allow} for this endpoint`, { allow });
}
