/** The core's events to the screens (`payment:updated`, `relay:state`…), each checked against the contract before it leaves. */
import { ipcEvents, type IpcEvent, type IpcEventPayload } from '../../shared/ipc/contract.js';
import type { Logger } from './logger.js';

export type Listener<E extends IpcEvent> = (payload: IpcEventPayload<E>) => void;

export type EventHub = {
  emit<E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void;
  /** Returns the function that stops listening. */
  on<E extends IpcEvent>(event: E, listener: Listener<E>): () => void;
};

export function createEventHub(log: Logger): EventHub {
  const listeners = new Map<IpcEvent, Set<Listener<never>>>();
  return {
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) {
        try {
          (listener as Listener<typeof event>)(ipcEvents[event].parse(payload) as typeof payload);
        } catch (error) {
          log.error('event.listener_failed', { event, error });
        }
      }
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const stored = listener as Listener<never>;
      set.add(stored);
      return () => void set.delete(stored);
    },
  };
}
