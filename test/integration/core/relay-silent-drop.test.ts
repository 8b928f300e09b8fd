/**
 * "Results: connected" means results can arrive. A network that silently drops packets keeps the relay's
 * stream open and says nothing; the till must see the stream is dead within its heartbeat time-out (12 s by
 * default, the relay beating every few seconds), not after the 45 s it once took. Real sandbox, real relay,
 * real till core on loopback, and a gate between till and relay that stops forwarding without closing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startGate, type Gate } from '../../faults/support/gate.js';
import { HEARTBEAT_TIMEOUT_MS } from '../../../electron/core/relay-link/relay-client.js';
import { tempDir, removeDir } from '../../support/temp-dir.js';
import { configureTest, openCore, startServices, waitForEvent, type LoggedCore, type Services } from './helpers.js';

let root: string;
let services: Services;
let gate: Gate;
let core: LoggedCore;

beforeAll(async () => {
  root = tempDir('momo-relay-drop-');
  services = await startServices(root);
  gate = await startGate({ port: Number(new URL(services.relay.url).port) });
  core = await openCore(join(root, 'till'));
  const connected = waitForEvent(core, 'relay:state', (p) => p.state === 'connected');
  await configureTest(core, { ...services, relay: { ...services.relay, url: gate.url } } as Services);
  await connected;
}, 60_000);

afterAll(async () => {
  await core?.close();
  await gate?.close();
  await services?.close();
  removeDir(root);
});

describe('a relay connection that drops silently', () => {
  it('leaves "connected" within the heartbeat time-out, and comes back when the network does', async () => {
    expect(HEARTBEAT_TIMEOUT_MS).toBeLessThanOrEqual(12_000);
    expect((await core.invoke('app:status', {})).relayState).toBe('connected');
    const left = waitForEvent(core, 'relay:state', (p) => p.state !== 'connected', HEARTBEAT_TIMEOUT_MS + 10_000);
    const droppedAt = Date.now();
    await gate.set({ kind: 'drop' });
    await left;
    const took = Date.now() - droppedAt;
    // Not before a heartbeat could be missed (the relay beats every second here), and within the bound.
    expect(took).toBeGreaterThan(1_000);
    expect(took).toBeLessThan(HEARTBEAT_TIMEOUT_MS + 3_000);
    expect((await core.invoke('app:status', {})).relayState).not.toBe('connected');

    const back = waitForEvent(core, 'relay:state', (p) => p.state === 'connected');
    await gate.set({ kind: 'pass' });
    await back;
  }, 40_000);
});
