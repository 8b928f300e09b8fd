/**
 * The noisy merchant runs in a process of its own, as it would on a machine of its own: its client work (a
 * thousand TLS requests a second, pages of 500 events received and dropped) must not stall the event loop the
 * calm merchants' times are taken on, or the bench would count its own pauses as the relay's.
 *
 * Parent side: `noisyProcess()` forks this file once; `start(phase)` begins that phase's behaviour there and
 * resolves once it holds what it opens; the Noise's `stop()` ends it and brings back its summary.
 * Child side (this file run by fork): one behaviour at a time, as neighbours-noise.ts defines them.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Proxy } from '../test/integration/relay/http/proxies.js';
import type { Merchant } from './neighbours-calm.js';
import { floodDeliveries, floodReads, heldPages, stalledStreams, type Noise, type NoiseSummary } from './neighbours-noise.js';
import { tlsAgent } from './neighbours-tls.js';

export type NoisyPhase = 'deliveries' | 'reads' | 'streams' | 'pages';
type Setup = { shared: { url: string; host: string; port: number }; ca: string; merchant: Merchant };
type ToChild = { start: NoisyPhase } | { stop: true };
type FromChild = { ready: true } | { summary: NoiseSummary } | { failed: string };

export function noisyProcess(setup: Setup) {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [JSON.stringify(setup)], {
    // NEIGHBOURS_CPU_PROF: a profile of its own, as the instances write (written when it exits, at close).
    execArgv: [
      ...(process.env.NEIGHBOURS_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.NEIGHBOURS_CPU_PROF] : []),
      '--import',
      'tsx',
    ],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<FromChild>((resolve, reject) => {
      child.once('message', (m) => resolve(m as FromChild));
      child.once('exit', (code) => reject(new Error(`the noisy merchant's process exited (${code})`)));
    });
  const ask = async (message: ToChild) => {
    const answer = next();
    child.send(message);
    const got = await answer;
    if ('failed' in got) throw new Error(`the noisy merchant: ${got.failed}`);
    return got;
  };
  return {
    async start(phase: NoisyPhase): Promise<Noise> {
      await ask({ start: phase });
      return {
        async stop() {
          const got = await ask({ stop: true });
          return 'summary' in got ? got.summary : {};
        },
      };
    },
    pid: () => child.pid ?? null,
    close: () => (child.connected ? child.disconnect() : child.kill()),
  };
}

async function runChild(setup: Setup): Promise<void> {
  const ca = Buffer.from(setup.ca, 'base64');
  const agent = tlsAgent(ca, 32);
  const proxy: Proxy = { ...setup.shared, stop: async () => undefined, output: () => '' };
  const behaviours: Record<NoisyPhase, () => Promise<Noise>> = {
    deliveries: async () => floodDeliveries(setup.shared, ca, setup.merchant),
    reads: async () => floodReads(setup.shared, ca, setup.merchant),
    streams: () => stalledStreams(proxy, ca, setup.merchant),
    pages: () => heldPages(setup.shared.url, agent, proxy, ca, setup.merchant),
  };
  let noise: Noise | null = null;
  process.on('message', (message: ToChild) => {
    const answer = async (): Promise<FromChild> => {
      if ('start' in message) {
        noise = await behaviours[message.start]();
        return { ready: true };
      }
      const summary = (await noise?.stop()) ?? {};
      noise = null;
      return { summary };
    };
    answer().then(
      (m) => process.send!(m),
      (err: unknown) => process.send!({ failed: String(err) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}

if (process.send && process.argv[2]) void runChild(JSON.parse(process.argv[2]) as Setup);
