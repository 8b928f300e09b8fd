/**
 * The domains' handler maps made into one. A channel defined by two maps is refused when the core is
 * built (as Actual Budget's `App.method` refuses a method name given twice): a spread would let the later
 * map win in silence, and a handler written for one domain would answer another's calls.
 */
import type { IpcChannel } from '../../../shared/ipc/contract.js';
import type { HandlerMap } from '../dispatcher.js';

/** Any domain's map: some channels, each with its handler. */
type SomeHandlers = Partial<HandlerMap<IpcChannel>>;

/** Every map's channels together (the caller's type then asks for every contract channel). */
type Combined<M extends readonly SomeHandlers[]> = M extends readonly [infer First, ...infer Rest extends readonly SomeHandlers[]]
  ? First & Combined<Rest>
  : unknown;

export function combineHandlers<M extends readonly SomeHandlers[]>(...maps: M): Combined<M> {
  const combined: Record<string, unknown> = {};
  for (const map of maps) {
    for (const [channel, handler] of Object.entries(map)) {
      if (Object.hasOwn(combined, channel)) throw new Error(`The IPC channel ${channel} has a handler in two maps: define it once.`);
      combined[channel] = handler;
    }
  }
  return combined as Combined<M>;
}
