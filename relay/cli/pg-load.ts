/**
 * Loading pg on Node 20 without its Cloudflare probe. At load, pg (lib/stream.js, isCloudflareRuntime)
 * looks at `navigator.userAgent`; on Node 20, which has no `navigator` (Node 21 and later have one, with
 * userAgent "Node.js/<major>"), it builds a `new Response(…)` instead, and that loads Node's fetch
 * implementation (undici, http, http2), which no CLI command uses, at every `relay merchant list`.
 * While a family of CLI commands loads, Node 20 gets the `navigator` later Nodes have, then loses it
 * again; on Node 21 and later nothing changes.
 */
export async function loadWithoutCloudflareProbe<T>(load: () => Promise<T>): Promise<T> {
  if ('navigator' in globalThis) return load();
  const major = process.versions.node.split('.')[0] ?? '';
  Object.defineProperty(globalThis, 'navigator', { value: { userAgent: `Node.js/${major}` }, configurable: true, writable: true });
  try {
    return await load();
  } finally {
    delete (globalThis as { navigator?: unknown }).navigator;
  }
}
