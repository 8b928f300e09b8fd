/**
 * The page's `window.momo = { invoke, on }` in browser mode, as the preload defines it in the desktop
 * app: invoke is a POST of `{ channel, payload }` answered with the core's envelope; `on` listens to
 * the server's event stream. Plain browser JavaScript, served after the `MOMO_BRIDGE` constant
 * (page-bridge.ts) as /momo-bridge.js, which index.html loads before the renderer (the CSP allows no
 * inline script).
 */
/* global MOMO_BRIDGE */
(() => {
  const { channels: channelNames, events: eventNames, invokePath, eventsPath, header } = MOMO_BRIDGE;
  const channels = new Set(channelNames);
  const events = new Set(eventNames);
  const listeners = new Map();
  // The launch link's token never stays in the address bar or the history (the server redirects too).
  if (location.search) history.replaceState(null, '', location.pathname);
  const stream = new EventSource(eventsPath);
  for (const name of events) {
    stream.addEventListener(name, (message) => {
      const payload = JSON.parse(message.data);
      for (const listener of listeners.get(name) ?? []) {
        try {
          listener(payload);
        } catch (error) {
          console.error(error);
        }
      }
    });
  }
  const api = {
    async invoke(channel, payload) {
      if (typeof channel !== 'string' || !channels.has(channel))
        throw { code: 'UNKNOWN_CHANNEL', message: `Unknown call ${String(channel).slice(0, 64)}` };
      let response;
      try {
        response = await fetch(invokePath, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', [header]: '1' },
          body: JSON.stringify({ channel, payload: payload ?? {} }),
        });
      } catch {
        throw { code: 'DISCONNECTED', message: 'The till is not running. Start it again with npm start.' };
      }
      if (!response.ok) throw { code: 'FORBIDDEN_SENDER', message: 'This page may not call the till. Open it again with npm start.' };
      const envelope = await response.json();
      if (envelope.ok) return envelope.value;
      throw { ...envelope.error };
    },
    on(event, listener) {
      if (typeof event !== 'string' || !events.has(event))
        throw { code: 'UNKNOWN_EVENT', message: `Unknown event ${String(event).slice(0, 64)}` };
      if (typeof listener !== 'function') throw { code: 'INVALID_REQUEST', message: 'listener must be a function' };
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => {
        set.delete(listener);
      };
    },
  };
  Object.defineProperty(window, 'momo', { value: Object.freeze(api), writable: false, configurable: false });
})();
