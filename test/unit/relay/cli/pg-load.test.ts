/** Loading pg on Node 20 with the `navigator` later Nodes have, so pg's Cloudflare probe does not load fetch. */
import { describe, expect, it } from 'vitest';
import { loadWithoutCloudflareProbe } from '../../../../relay/cli/pg-load.js';

const userAgent = () => (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent;

describe('loadWithoutCloudflareProbe', () => {
  it('gives a Node without navigator the one Node 21+ has while loading, then takes it away, even when loading fails', async () => {
    const had = 'navigator' in globalThis;
    const before = (globalThis as { navigator?: unknown }).navigator;
    const major = process.versions.node.split('.')[0];
    const seen = await loadWithoutCloudflareProbe(async () => userAgent());
    expect(seen).toMatch(/^Node\.js\/\d+/);
    if (!had) expect(seen).toBe(`Node.js/${major}`);
    await expect(loadWithoutCloudflareProbe(() => Promise.reject(new Error('broken bundle')))).rejects.toThrow('broken bundle');
    expect('navigator' in globalThis).toBe(had);
    expect((globalThis as { navigator?: unknown }).navigator).toBe(before);
  });

  it('returns what the load returns', async () => {
    await expect(loadWithoutCloudflareProbe(async () => 42)).resolves.toBe(42);
  });
});
