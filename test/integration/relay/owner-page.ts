/** The owner's phone page as a test opens it: a link made by a till, a session, and the page's event stream. */
import { post, SseClient } from './helpers.js';

/** What a page hears when the relay's operator, not the shop owner, turns its link off. */
export const OPERATOR = "This link was turned off by the relay's operator (the service that runs it), not by the shop owner";

/** Makes a live phone link with the till's token and opens its page: the link's id and token, the session cookie, the stream. */
export async function openPage(url: string, tillToken: string, label: string) {
  const made = (
    await post(`${url}/v1/owner-links`, JSON.stringify({ label, environment: 'live' }), { authorization: `Bearer ${tillToken}` })
  ).json as { link: { id: string }; token: string };
  const res = await fetch(`${url}/v1/owner/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: made.token }),
  });
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const sse = await SseClient.connect(`${url}/v1/owner/stream?after=0`, undefined, { cookie });
  return { id: made.link.id, token: made.token, cookie, sse };
}
