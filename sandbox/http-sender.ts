/** The real webhook sender: a POST through undici on its own connection pool. Redirects are not followed. */
import { Agent, request } from 'undici';
import type { Sender } from './deliveries.js';

export function createHttpSender(): { send: Sender; close(): Promise<void> } {
  const agent = new Agent({ keepAliveTimeout: 2_000, connect: { timeout: 15_000 } });
  const send: Sender = async ({ url, headers, body, signal }) => {
    const response = await request(url, { method: 'POST', headers, body, signal, dispatcher: agent });
    // The answer's body is not used; drain it (bounded) so the connection can be reused.
    response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    return response.statusCode;
  };
  return { send, close: () => agent.destroy() };
}
