/**
 * The preload exposes exactly one object, `window.momo = { invoke, on }`, for the contract's
 * channels and events (names from shared/ipc/channels.ts: no zod in this sandboxed bundle). No raw
 * ipcRenderer, no Node. Errors arrive as `{ code, message }` objects, never stacks.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_CHANNEL_NAMES, IPC_EVENT_NAMES, type IpcEnvelope } from '../../shared/ipc/channels.js';

const channels = new Set<string>(IPC_CHANNEL_NAMES);
const events = new Set<string>(IPC_EVENT_NAMES);

const momo = Object.freeze({
  async invoke(channel: string, payload: unknown): Promise<unknown> {
    if (typeof channel !== 'string' || !channels.has(channel))
      throw { code: 'UNKNOWN_CHANNEL', message: `Unknown call ${String(channel).slice(0, 64)}` };
    const envelope = (await ipcRenderer.invoke(channel, payload)) as IpcEnvelope;
    if (envelope.ok) return envelope.value;
    throw { ...envelope.error };
  },
  on(event: string, listener: (payload: unknown) => void): () => void {
    if (typeof event !== 'string' || !events.has(event))
      throw { code: 'UNKNOWN_EVENT', message: `Unknown event ${String(event).slice(0, 64)}` };
    if (typeof listener !== 'function') throw { code: 'INVALID_REQUEST', message: 'listener must be a function' };
    const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(event, wrapped);
    return () => {
      ipcRenderer.removeListener(event, wrapped);
    };
  },
});

contextBridge.exposeInMainWorld('momo', momo);
