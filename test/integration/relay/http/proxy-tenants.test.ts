/**
 * One merchant's refusals never take an instance out for the others, through relay/docs/proxies.md's
 * two-instance nginx and Caddy configs as written (test/integration/relay/http/proxies.ts reads them), in
 * front of two relays on one PostgreSQL database:
 * - a suspended merchant whose deliveries the service keeps retrying: it is answered the relay's own 403
 *   MERCHANT_SUSPENDED through the proxy (not the proxy's 502), and every other merchant's delivery is 200;
 * - a till over its token's stream share, asking again and again: 429 RATE_LIMITED with Retry-After through
 *   the proxy, and every other merchant's delivery is 200;
 * - a till over its read share (pages) and at its merchant's count of owner links, asking again and again: the
 *   relay's 429 (Retry-After, JSON) and 409 (JSON, no Retry-After) through the proxy, and every other
 *   merchant's delivery is 200;
 * - a merchant flooding signed deliveries of its own past its delivery share: the relay's 429 (Retry-After,
 *   JSON) through the proxy, and every other merchant's delivery is 200; behind nginx, the flood stops at the
 *   proxy (the relay marks that refusal for nginx to give again for a few seconds).
 * With 503 for these answers and nginx's default max_fails=1, nginx set each instance aside in turn and
 * answered everyone "502 no live upstreams". Skipped by name where nginx-light, caddy, openssl or
 * PostgreSQL 15 is absent.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { addKey, addMerchant, createToken, openPgPool, setSuspended } from '../../../../relay/store/pg/index.js';
import { startRelay, type RunningRelay } from '../../../../relay/http/index.js';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';
import { waitFor } from '../../../support/wait-for.js';
import { deliver, signedHeaders, transaction, webhookBody } from '../helpers.js';
import { CADDY, docBlocks, httpsRequest, NGINX, OPENSSL, selfSignedCert, startCaddy, startNginx, type Proxy } from './proxies.js';

const KEYS = {
  MCH_noisy: { publicId: 'pk_live_Noisy0001', secret: `sk_live_${'NoisySecret00000000001'}` },
  MCH_calm1: { publicId: 'pk_live_Calm10001', secret: `sk_live_${'Calm1Secret00000000001'}` },
  MCH_calm2: { publicId: 'pk_live_Calm20001', secret: `sk_live_${'Calm2Secret00000000001'}` },
} as const;
type Merchant = keyof typeof KEYS;
const CALM: Merchant[] = ['MCH_calm1', 'MCH_calm2'];

const KINDS = [
  { name: 'nginx', binary: NGINX, language: 'nginx' as const, start: startNginx },
  { name: 'Caddy', binary: CADDY, language: 'caddyfile' as const, start: startCaddy },
];

/**
 * One stream per token; one read per token, then one per 100 s (each instance's first read is spent straight
 * to it, so every read through the proxy is over the share); one owner link per merchant; deliveries unheld.
 */
const READ_AND_LINK_SHARES = {
  maxStreamsPerToken: 1,
  readsPerSecondPerToken: 0.01,
  readBurstPerToken: 1,
  maxOwnerLinksPerMerchant: 1,
  // The calm merchants deliver back to back, past a shop's delivery share: only the flooding cases hold them to one.
  deliveriesPerSecondPerMerchant: 1_000,
  deliveryBurstPerMerchant: 1_000,
};

function signed(merchant: Merchant): { body: string; headers: Record<string, string> } {
  const body = webhookBody(transaction('live'));
  return { body, headers: { 'content-type': 'application/json', ...signedHeaders(body, KEYS[merchant]) } };
}

describePg('one merchant refused behind the documented proxies', () => {
  const cluster = usePgCluster();
  const dir = tempDir('proxy-tenants');
  const instances: RunningRelay[] = [];
  const proxies: Proxy[] = [];
  const tokens = {} as Record<Merchant, string>;
  let pool: pg.Pool;
  let tls: { cert: string; key: string; ca: Buffer };

  beforeAll(async () => {
    if (!OPENSSL || (!NGINX && !CADDY)) return;
    tls = selfSignedCert(dir);
    const url = await cluster().createDatabase();
    const masterKey = randomBytes(32);
    pool = await openPgPool(url, 2);
    for (const m of Object.keys(KEYS) as Merchant[]) {
      await addMerchant(pool, m);
      await addKey(pool, masterKey, m, KEYS[m].publicId, KEYS[m].secret);
      tokens[m] = await createToken(pool, m, 'front-counter');
    }
    for (let i = 0; i < 2; i++) {
      instances.push(await startRelay({ databaseUrl: url, masterKey, config: READ_AND_LINK_SHARES, log: () => {} }));
    }
  }, 120_000);

  afterAll(async () => {
    for (const p of proxies) await p.stop();
    for (const r of instances) await r.close();
    await pool?.end();
    removeDir(dir);
  });

  /**
   * The calm merchants deliver `count` each, one after another, while `noise` runs over and over; returns
   * their failed deliveries (each with the status it got) and the noisy answers' statuses.
   */
  async function whileNoisy(proxy: Proxy, count: number, noise: () => Promise<number>) {
    let calmDone = false;
    const noisy: number[] = [];
    const noisyLoops = Array.from({ length: 4 }, async () => {
      while (!calmDone) noisy.push(await noise());
    });
    const failures: string[] = [];
    try {
      await Promise.all(
        CALM.map(async (m) => {
          for (let i = 0; i < count; i++) {
            const d = signed(m);
            const answer = await httpsRequest(proxy, tls.ca, '/v1/webhooks', { method: 'POST', headers: d.headers, body: d.body });
            if (answer.status !== 200) failures.push(`${m}: ${answer.status} ${answer.body.slice(0, 120)}`);
          }
        }),
      );
    } finally {
      calmDone = true;
      await Promise.all(noisyLoops);
    }
    return { failures, noisy };
  }

  it.skipIf(!OPENSSL || (!NGINX && !CADDY))(
    'directly: a merchant past its delivery share is answered from the headers, its body dropped, the connection kept for the next request',
    async () => {
      const relay = instances[0]!;
      relay.setConfig({ ...READ_AND_LINK_SHARES, deliveriesPerSecondPerMerchant: 0.01, deliveryBurstPerMerchant: 12 });
      const socket = connect(Number(new URL(relay.url).port), new URL(relay.url).hostname);
      try {
        await waitFor(
          async () => (await deliver(relay.url, transaction('live'), KEYS.MCH_noisy)).status === 429,
          10_000,
          "the noisy merchant's share spent",
        );
        const answers = answersOn(socket);
        const noisy = Buffer.from(request(signed('MCH_noisy')));
        const half = noisy.length - 40;
        socket.write(noisy.subarray(0, half));
        const refused = await answers.next();
        expect(refused.status, 'answered with the end of its body still unsent').toBe(429);
        expect(refused.head).toMatch(/\r\nretry-after: \d+/i);
        expect(refused.head, 'nginx may give it again (relay/docs/proxies.md)').toMatch(/\r\nx-accel-expires: [1-5]\r\n/i);
        expect(refused.head, 'the connection is kept').not.toMatch(/\r\nconnection: close/i);
        socket.write(noisy.subarray(half));
        socket.write(request(signed('MCH_calm1')));
        const next = await answers.next();
        expect(next.status, "another merchant's delivery on the same connection").toBe(200);
        expect(next.head, 'a stored delivery is never marked for a proxy to keep').not.toMatch(/x-accel-expires/i);
      } finally {
        socket.destroy();
        relay.setConfig(READ_AND_LINK_SHARES);
      }
    },
  );

  /** A delivery as one HTTP/1.1 request on a kept-alive connection. */
  function request(d: { body: string; headers: Record<string, string> }): string {
    const head = Object.entries({ host: 'relay', ...d.headers, 'content-length': String(Buffer.byteLength(d.body)) });
    return `POST /v1/webhooks HTTP/1.1\r\n${head.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${d.body}`;
  }

  /** The answers arriving on `socket`, one at a time: each one's status and head. */
  function answersOn(socket: Socket) {
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
    return {
      async next(): Promise<{ status: number; head: string }> {
        let got: { status: number; head: string } | null = null;
        await waitFor(
          () => {
            const end = received.indexOf('\r\n\r\n');
            if (end < 0) return false;
            const head = received.subarray(0, end + 2).toString('latin1');
            const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
            if (received.length < end + 4 + length) return false;
            received = received.subarray(end + 4 + length);
            got = { status: Number(head.slice(9, 12)), head };
            return true;
          },
          10_000,
          'an answer on the connection',
        );
        return got!;
      },
    };
  }

  for (const kind of KINDS) {
    const present = Boolean(kind.binary && OPENSSL);
    describe.skipIf(!present)(`${kind.name}${present ? '' : ' (skipped: not installed)'}`, () => {
      it('a suspended merchant retried by the service: 403 MERCHANT_SUSPENDED through the proxy, 0 failures for the others', async () => {
        const proxy = await twoInstanceProxy();
        await setSuspended(pool, 'MCH_noisy', true);
        try {
          for (const r of instances) {
            await waitFor(async () => (await deliver(r.url, transaction('live'), KEYS.MCH_noisy)).status === 403, 10_000, 'the suspension');
          }
          const { failures, noisy } = await whileNoisy(proxy, 40, async () => {
            const d = signed('MCH_noisy');
            const answer = await httpsRequest(proxy, tls.ca, '/v1/webhooks', { method: 'POST', headers: d.headers, body: d.body });
            if (answer.status === 403) expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'MERCHANT_SUSPENDED' } });
            return answer.status;
          });
          expect(failures, 'other merchants’ failed deliveries').toEqual([]);
          expect(noisy.length).toBeGreaterThan(20);
          expect(new Set(noisy), 'the suspended merchant is answered by the relay, not the proxy').toEqual(new Set([403]));
        } finally {
          await setSuspended(pool, 'MCH_noisy', false);
        }
      }, 120_000);

      it('a till over its stream share asking again and again: 429 with Retry-After, 0 failures for the others', async () => {
        const proxy = await twoInstanceProxy();
        // The token's one stream on each instance, held open straight to the instances.
        const held = instances.map((r) =>
          fetch(`${r.url}/v1/events?after=1000000`, { headers: { authorization: `Bearer ${tokens.MCH_noisy}` } }),
        );
        const opened = await Promise.all(held);
        try {
          for (const o of opened) expect(o.status).toBe(200);
          const retryAfter: string[] = [];
          const { failures, noisy } = await whileNoisy(proxy, 40, async () => {
            const res = await fetchThrough(proxy);
            if (res.status === 429) retryAfter.push(String(res.headers['retry-after']));
            return res.status;
          });
          expect(failures, 'other merchants’ failed deliveries').toEqual([]);
          expect(noisy.length).toBeGreaterThan(20);
          expect(new Set(noisy), 'the till is answered by the relay, not the proxy').toEqual(new Set([429]));
          expect(Number(retryAfter[0])).toBeGreaterThan(0);
        } finally {
          for (const o of opened) await o.body?.cancel();
        }
      }, 120_000);

      it("a till over its read share and at its merchant's link count: the relay's 429 and 409 through the proxy, 0 failures for the others", async () => {
        const proxy = await twoInstanceProxy();
        const auth = { authorization: `Bearer ${tokens.MCH_noisy}` };
        // The token's one read on each instance, and the merchant's one link, spent straight to the instances.
        for (const r of instances) await fetch(`${r.url}/v1/transactions?after=0`, { headers: auth });
        const link = { label: 'Phone', environment: 'live' };
        const made = await fetch(`${instances[0]!.url}/v1/owner-links`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(link),
        });
        expect([201, 409]).toContain(made.status);
        const answers: Array<{ status: number; retryAfter: unknown; body: string }> = [];
        let turn = 0;
        const { failures, noisy } = await whileNoisy(proxy, 20, async () => {
          const page = turn++ % 2 === 0;
          const answer = page
            ? await httpsRequest(proxy, tls.ca, '/v1/transactions?after=0', { headers: auth })
            : await httpsRequest(proxy, tls.ca, '/v1/owner-links', {
                method: 'POST',
                headers: { ...auth, 'content-type': 'application/json' },
                body: JSON.stringify(link),
              });
          answers.push({ status: answer.status, retryAfter: answer.headers['retry-after'], body: answer.body });
          return answer.status;
        });
        expect(failures, 'other merchants’ failed deliveries').toEqual([]);
        expect(noisy.length).toBeGreaterThan(20);
        expect(new Set(noisy), 'the till is answered by the relay, not the proxy').toEqual(new Set([429, 409]));
        for (const a of answers) {
          if (a.status === 429) {
            expect(Number(a.retryAfter), 'a read refused says when to come back').toBeGreaterThanOrEqual(1);
            expect(JSON.parse(a.body)).toMatchObject({ error: { code: 'RATE_LIMITED' } });
            expect(a.body).toMatch(/readsPerSecondPerToken 0.01/);
          } else {
            expect(a.retryAfter, 'a count: waiting frees nothing').toBeUndefined();
            expect(JSON.parse(a.body)).toMatchObject({ error: { code: 'CONFLICT' } });
            expect(a.body).toMatch(/maxOwnerLinksPerMerchant 1/);
          }
        }
      }, 120_000);

      it("a merchant flooding signed deliveries of its own past its share: the relay's 429 with Retry-After through the proxy, 0 failures for the others", async () => {
        const proxy = await twoInstanceProxy();
        // Room for the calm merchants' five each under both proxies, wherever the proxy sends them; next to none refilled.
        const share = { ...READ_AND_LINK_SHARES, deliveriesPerSecondPerMerchant: 0.01, deliveryBurstPerMerchant: 12 };
        for (const r of instances) r.setConfig(share);
        try {
          for (const r of instances) {
            await waitFor(
              async () => (await deliver(r.url, transaction('live'), KEYS.MCH_noisy)).status === 429,
              10_000,
              "the noisy merchant's share spent",
            );
          }
          const refusals = () =>
            instances.reduce((n, r) => n + r.metrics.shareRefusals.get({ limit: 'deliveriesPerSecondPerMerchant' }), 0);
          const refusedBefore = refusals();
          const answers: Array<{ retryAfter: unknown; body: string }> = [];
          const { failures, noisy } = await whileNoisy(proxy, 5, async () => {
            const d = signed('MCH_noisy');
            const answer = await httpsRequest(proxy, tls.ca, '/v1/webhooks', { method: 'POST', headers: d.headers, body: d.body });
            answers.push({ retryAfter: answer.headers['retry-after'], body: answer.body });
            return answer.status;
          });
          expect(failures, 'other merchants’ failed deliveries').toEqual([]);
          expect(noisy.length).toBeGreaterThanOrEqual(4);
          expect(new Set(noisy), 'the flooding merchant is answered by the relay, not the proxy').toEqual(new Set([429]));
          for (const a of answers) {
            expect(Number(a.retryAfter), 'the service is told when to come back').toBeGreaterThanOrEqual(1);
            expect(JSON.parse(a.body)).toMatchObject({ error: { code: 'RATE_LIMITED' } });
            expect(a.body).toMatch(/deliveriesPerSecondPerMerchant 0.01 after deliveryBurstPerMerchant 12/);
          }
          const reached = refusals() - refusedBefore;
          if (kind.name === 'nginx') {
            // The relay's refusal said nginx may give it again for 5 s: the flood stops at the proxy. Its first
            // four requests, sent at once, may all reach an instance before the first answer is kept.
            expect(noisy.length).toBeGreaterThanOrEqual(8);
            expect(reached, `of ${noisy.length} refused, reached an instance`).toBeLessThanOrEqual(Math.min(8, noisy.length / 2));
          } else expect(reached, 'Caddy keeps nothing: each refusal is the relay’s').toBe(noisy.length);
        } finally {
          for (const r of instances) r.setConfig(READ_AND_LINK_SHARES);
        }
      }, 120_000);

      /** The document's two-instance block for this proxy, started in front of both relays. */
      async function twoInstanceProxy(): Promise<Proxy> {
        const proxy = await kind.start(
          docBlocks(kind.language)[1] as string,
          dir,
          instances.map((r) => new URL(r.url).host),
          tls,
        );
        proxies.push(proxy);
        return proxy;
      }

      /** One stream request by the noisy till through the proxy. */
      function fetchThrough(proxy: Proxy) {
        return httpsRequest(proxy, tls.ca, '/v1/events?after=1000000', {
          headers: { authorization: `Bearer ${tokens.MCH_noisy}`, accept: 'text/event-stream' },
        });
      }
    });
  }
});
