/**
 * HTTP to the payment service through undici with explicit time-outs: a connect time-out and a
 * response (headers and body) time-out. The result says plainly whether the service answered, and
 * if it did not, whether the request may have reached it.
 */
import { Agent, request } from 'undici';
import { errorBodySchema } from '../../../shared/wire/errors.js';
// What the client signs its calls with belongs to the settings (settings/service-configs.ts).
import type { ServiceCredentials } from '../settings/index.js';

export type { ServiceCredentials };

export type ServiceResult =
  | { kind: 'answer'; status: number; json: unknown; retryAfterMs: number | null }
  | { kind: 'error'; status: number; code: string | null; message: string | null; retryAfterMs: number | null }
  | { kind: 'no-answer'; reason: 'connect-timeout' | 'response-timeout' | 'refused' | 'broken' };

export type ServiceClient = {
  initialize(credentials: ServiceCredentials, body: string): Promise<ServiceResult>;
  resolve(credentials: ServiceCredentials, msisdn: string, network: string): Promise<ServiceResult>;
  close(): Promise<void>;
};

const MAX_BODY_BYTES = 256 * 1024;

export function createServiceClient(options: { connectTimeoutMs: number; responseTimeoutMs: number }): ServiceClient {
  const agent = new Agent({
    connect: { timeout: options.connectTimeoutMs },
    headersTimeout: options.responseTimeoutMs,
    bodyTimeout: options.responseTimeoutMs,
    keepAliveTimeout: 4_000,
  });

  const send = async (credentials: ServiceCredentials, method: 'GET' | 'POST', path: string, body?: string): Promise<ServiceResult> => {
    const url = new URL(path, `${credentials.baseUrl.replace(/\/+$/, '')}/`);
    // The response time-out is a hard deadline for the whole exchange (undici's own headers/body timers,
    // also set, are coarse); the connect time-out bounds the TCP/TLS connect inside it.
    const deadline = AbortSignal.timeout(options.responseTimeoutMs);
    try {
      const response = await request(url, {
        method,
        dispatcher: agent,
        signal: deadline,
        headers: {
          authorization: `Bearer ${credentials.secretKey}`,
          'x-service-merchant-id': credentials.merchantId,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body,
      });
      const text = await readCapped(response.body, deadline);
      let json: unknown = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null;
      }
      const retryAfterHeader = response.headers['retry-after'];
      const retrySeconds = Number(Array.isArray(retryAfterHeader) ? retryAfterHeader[0] : retryAfterHeader);
      const retryAfterMs = Number.isFinite(retrySeconds) && retrySeconds >= 0 ? retrySeconds * 1000 : null;
      if (response.statusCode >= 200 && response.statusCode < 300) {
        return { kind: 'answer', status: response.statusCode, json, retryAfterMs };
      }
      const parsed = errorBodySchema.safeParse(json);
      return {
        kind: 'error',
        status: response.statusCode,
        code: parsed.success ? parsed.data.error.code : null,
        message: parsed.success ? parsed.data.error.message : null,
        retryAfterMs,
      };
    } catch (error) {
      return { kind: 'no-answer', reason: classify(error) };
    }
  };

  return {
    initialize: (credentials, body) => send(credentials, 'POST', 'v1/payments/initialize', body),
    resolve: (credentials, msisdn, network) =>
      send(credentials, 'GET', `v1/accounts/resolve?${new URLSearchParams({ msisdn, network }).toString()}`),
    close: () => agent.close(),
  };
}

async function readCapped(body: AsyncIterable<Buffer | Uint8Array>, deadline: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    deadline.throwIfAborted();
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw Object.assign(new Error('response too large'), { code: 'MOMO_TOO_LARGE' });
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

function classify(error: unknown): 'connect-timeout' | 'response-timeout' | 'refused' | 'broken' {
  const code = (error as { code?: string }).code ?? '';
  const name = (error as { name?: string }).name ?? '';
  if (name === 'TimeoutError' || name === 'AbortError') return 'response-timeout';
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'connect-timeout';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'response-timeout';
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return 'refused';
  return 'broken';
}
