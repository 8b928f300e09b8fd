/**
 * What each relay instance's event loop went through in a phase, from its own /metrics (prom-client's default
 * process metrics): the longest delay and the 99th percentile of the loop's delay since the last scrape (the
 * scrape resets them), the time spent collecting garbage, and the connections the instance shed or refused
 * by a per-client limit (the proxy's connections are all one client to it unless trustedProxies names it). A calm merchant's slow commit with the CPU half
 * idle is either a stalled loop (these say so) or a wait elsewhere (the database).
 */
import { request } from 'undici';

const sample = (text: string, name: string) =>
  [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm'))].reduce((sum, m) => sum + Number(m[1]), 0);

async function scrape(adminUrl: string) {
  const text = await (await request(`${adminUrl}/metrics`)).body.text();
  return {
    lagMaxMs: sample(text, 'nodejs_eventloop_lag_max_seconds') * 1000,
    lagP99Ms: sample(text, 'nodejs_eventloop_lag_p99_seconds') * 1000,
    gcMs: sample(text, 'nodejs_gc_duration_seconds_sum') * 1000,
    shed: sample(text, 'relay_connections_shed_total') + sample(text, 'relay_client_limited_total'),
  };
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** `since()` starts a phase (and resets the loop's figures); `phase()` gives each instance's figures since. */
export function loopMeter(adminUrls: string[]) {
  let before = adminUrls.map(() => ({ gcMs: 0, shed: 0 }));
  return {
    async since(): Promise<void> {
      before = await Promise.all(adminUrls.map(scrape));
    },
    async phase(): Promise<{ loopLagMaxMs: number[]; loopLagP99Ms: number[]; gcMs: number[]; connectionsShed: number[] }> {
      const now = await Promise.all(adminUrls.map(scrape));
      return {
        loopLagMaxMs: now.map((s) => round1(s.lagMaxMs)),
        loopLagP99Ms: now.map((s) => round1(s.lagP99Ms)),
        gcMs: now.map((s, i) => round1(s.gcMs - before[i]!.gcMs)),
        connectionsShed: now.map((s, i) => s.shed - before[i]!.shed),
      };
    },
  };
}
