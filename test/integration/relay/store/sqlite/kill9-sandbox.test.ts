/**
 * Durability under a crash: the sandbox simulator (its real retry schedule, time-scaled) sends a
 * burst of payment results to a relay running as its own process; the relay is killed with
 * SIGKILL in the middle of the burst and restarted on the same data dir and port. Afterwards
 * every payment's final state is in the relay exactly once, and the SSE log is gap-free.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { relayPageSchema } from '../../../../../shared/relay-wire.js';
import { startSandbox, type SandboxHandle } from '../../../../../sandbox/server.js';
import { createRelayToken } from '../../../../../relay/ops/index.js';
import { get, post, spawnRelay, SseClient, type RelayProcess } from '../../helpers.js';
import { removeDir, tempDir } from '../../../../support/temp-dir.js';
import { sleep } from '../../../../support/wait-for.js';

// 0.03: the whole retry schedule (635 s) takes 19 s and the 15 s time-out 450 ms, leaving room for
// the relay's restart (a few seconds on a loaded two-core machine) before the 8th attempt.
const TIME_SCALE = 0.03;
const PAYMENTS = 80;
// Last two digits pick the simulated outcome: default success, 01 decline, 03 insufficient funds,
// 04 network rejection, 05 success reported three times by the network (one webhook).
const SUFFIXES = ['00', '11', '01', '03', '04', '05', '27', '42'];

type SandboxTx = { reference: string; environment: string; status: string; amount: string; clientReference: string | null };
type SandboxDelivery = {
  reference: string;
  status: string;
  attempts: Array<{ ok: boolean; statusCode: number | null; error: string | null }>;
};

describe('relay: kill -9 in the middle of a burst of sandbox deliveries', () => {
  const tmp = tempDir('relay-kill9');
  let sandbox: SandboxHandle | undefined;
  let relay: RelayProcess | undefined;

  afterAll(async () => {
    if (relay && relay.proc.exitCode === null && relay.proc.signalCode === null) {
      relay.proc.kill('SIGTERM');
      await relay.exited;
    }
    await sandbox?.close();
    removeDir(tmp);
  });

  async function dashboard<T>(path: string): Promise<T> {
    const res = await get(`${sandbox!.baseUrl}/dashboard/api/${path}`);
    expect(res.status).toBe(200);
    return (res.json as { data: T }).data;
  }

  it('ends with every payment final state stored exactly once', async () => {
    sandbox = await startSandbox({
      port: 0,
      dataDir: join(tmp, 'sandbox'),
      timeScale: TIME_SCALE,
      signedPayload: 'timestamp.body',
      log: () => {},
    });
    const { token, tokenHash } = createRelayToken();
    const configFile = join(tmp, 'relay.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        keys: [sandbox.keys.test, sandbox.keys.live],
        tills: [{ label: 'front-counter', tokenHash }],
        signedPayload: 'timestamp.body',
      }),
    );
    const relayData = join(tmp, 'relay-data');
    relay = await spawnRelay(['--port', '0', '--admin-port', '0', '--data', relayData, '--config', configFile]);
    const port = new URL(relay.url).port;
    const callbackUrl = `${relay.url}/v1/webhooks`;

    const initialize = (i: number, key: { secret: string }) =>
      post(
        `${sandbox!.baseUrl}/v1/payments/initialize`,
        JSON.stringify({
          amount: `${10 + (i % 7)}.50`,
          callbackUrl,
          customer: { msisdn: `2332412345${SUFFIXES[i % SUFFIXES.length]}`, network: 'MTN' },
          merchantRef: `kill9-${i}`,
          description: `burst ${i}`,
        }),
        { authorization: `Bearer ${key.secret}`, 'x-service-merchant-id': sandbox!.merchantId },
      );

    // The burst: test-key payments in waves, plus a few live ones (their prompts time out -> FAILED).
    let killedAtSeq = -1;
    const started: Array<Promise<unknown>> = [];
    const burst = (async () => {
      for (let i = 0; i < PAYMENTS; i++) {
        const key = i % 20 === 19 ? sandbox!.keys.live : sandbox!.keys.test;
        started.push(
          initialize(i, key).then((r) => {
            if (r.status !== 202) throw new Error(`initialize ${i}: ${r.status} ${r.body}`);
          }),
        );
        if (i % 8 === 7) await sleep(25);
      }
    })();

    // Kill -9 once the relay has committed part of the burst.
    for (;;) {
      const m = await get(`${relay.adminUrl}/metrics`).catch(() => null);
      const lastSeq = Number(/^relay_event_log_last_seq (\d+)$/m.exec(m?.body ?? '')?.[1] ?? 0);
      if (lastSeq >= 12) {
        relay.proc.kill('SIGKILL');
        killedAtSeq = lastSeq;
        break;
      }
      await sleep(5);
    }
    expect(await relay.exited).toBe(null);
    expect(relay.proc.signalCode).toBe('SIGKILL');
    await burst;
    await Promise.all(started);
    await sleep(150); // down a while: the sandbox's attempts fail and are rescheduled

    relay = await spawnRelay(['--port', port, '--data', relayData, '--config', configFile]);
    expect(relay.url).toBe(callbackUrl.replace('/v1/webhooks', ''));

    // Wait for the sandbox to finish: every transaction final, every delivery settled.
    let txs: SandboxTx[] = [];
    let deliveries: SandboxDelivery[] = [];
    for (let i = 0; i < 300; i++) {
      txs = await dashboard<SandboxTx[]>('transactions');
      deliveries = await dashboard<SandboxDelivery[]>('deliveries');
      const done =
        txs.length === PAYMENTS &&
        txs.every((t) => t.status === 'SUCCESS' || t.status === 'FAILED') &&
        deliveries.length === PAYMENTS &&
        deliveries.every((d) => d.status !== 'PENDING');
      if (done) break;
      await sleep(100);
    }
    expect(txs).toHaveLength(PAYMENTS);
    expect(deliveries.every((d) => d.status === 'DELIVERED')).toBe(true);
    expect(killedAtSeq).toBeLessThan(PAYMENTS);
    // The crash really cost the sandbox attempts, which its retries made up for.
    const retried = deliveries.filter((d) => d.attempts.length > 1);
    expect(retried.length).toBeGreaterThan(0);
    expect(deliveries.some((d) => d.attempts.some((a) => !a.ok))).toBe(true);

    const page = relayPageSchema.parse((await get(`${relay.url}/v1/transactions?after=0&limit=500`, token)).json);
    expect(page.hasMore).toBe(false);
    const byRef = new Map<string, number>();
    for (const e of page.items) byRef.set(e.transaction.reference, (byRef.get(e.transaction.reference) ?? 0) + 1);
    expect(page.items).toHaveLength(PAYMENTS);
    for (const t of txs) {
      expect(byRef.get(t.reference), t.reference).toBe(1);
      const e = page.items.find((x) => x.transaction.reference === t.reference)!;
      expect(e.transaction.status).toBe(t.status);
      expect(e.transaction.amount).toBe(t.amount);
      expect(e.transaction.clientReference).toBe(t.clientReference);
      expect(e.environment).toBe(t.environment);
      expect(e.transaction.sandbox === true).toBe(t.environment === 'test');
    }
    expect(new Set(txs.map((t) => t.status))).toEqual(new Set(['SUCCESS', 'FAILED']));
    expect(page.items.map((e) => e.seq)).toEqual(Array.from({ length: PAYMENTS }, (_, i) => i + 1));

    // A till catching up over SSE from the start gets each sequence once, in order.
    const sse = await SseClient.connect(`${relay.url}/v1/events?after=0`, token);
    await sse.waitFor((c) => c.events.length >= PAYMENTS, 10_000);
    await sleep(50);
    expect(sse.events.map((e) => e.seq)).toEqual(Array.from({ length: PAYMENTS }, (_, i) => i + 1));
    sse.close();

    relay.proc.kill('SIGTERM');
    expect(await relay.exited).toBe(0);
  });
});
