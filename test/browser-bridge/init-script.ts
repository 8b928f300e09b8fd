/**
 * Runs in the page before the renderer: defines `window.momo` with the shape the preload exposes
 * (invoke + on, frozen), backed by two Playwright bindings instead of Electron IPC:
 *   __momoInvoke(channel, payload) -> the core's envelope, as over Electron IPC (test process -> core)
 *   window.__momoEmit(event, payload) is called by the test process for each core event.
 * Kept as a plain function so Playwright can serialise it into the page.
 */
export function installMomoBridge(): void {
  type Listener = (payload: unknown) => void;
  // shared/ipc/channels.ts's IpcEnvelope, restated: this function is serialised into the page on its own.
  type Envelope = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string; field?: string } };
  const w = window as unknown as {
    __momoInvoke(channel: string, payload: unknown): Promise<Envelope>;
    __momoEmit?: (event: string, payload: unknown) => void;
    momo?: unknown;
  };
  const listeners = new Map<string, Set<Listener>>();
  w.__momoEmit = (event, payload) => {
    for (const listener of listeners.get(event) ?? []) {
      try {
        listener(payload);
      } catch (error) {
        console.error(error);
      }
    }
  };
  const api = {
    async invoke(channel: string, payload: unknown) {
      const envelope = await w.__momoInvoke(channel, payload ?? {});
      if (envelope.ok) return envelope.value;
      throw { ...envelope.error };
    },
    on(event: string, listener: Listener) {
      const set = listeners.get(event) ?? new Set<Listener>();
      set.add(listener);
      listeners.set(event, set);
      return () => {
        set.delete(listener);
      };
    },
  };
  Object.defineProperty(window, 'momo', { value: Object.freeze(api), writable: false, configurable: false });
}
