/**
 * The BUILT preload (out/preload/index.cjs, from `npx electron-vite build`) evaluated in a vm context
 * with a stand-in `electron` (contextBridge, ipcRenderer), not the real Electron: it must be CommonJS
 * (a sandboxed window cannot load an ESM preload), require nothing but `electron`, and expose exactly
 * `window.momo = { invoke, on }` for the contract's names. Skipped by name when there is no build.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Script, createContext } from 'node:vm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS, IPC_EVENTS } from '../../../shared/ipc/contract.js';

const BUNDLE = join(resolve(import.meta.dirname, '../../..'), 'out', 'preload', 'index.cjs');
const built = existsSync(BUNDLE);

type Momo = { invoke(channel: string, payload: unknown): Promise<unknown>; on(event: string, listener: (p: unknown) => void): () => void };
const exposed: Array<[string, Momo]> = [];
const required: string[] = [];
const ipcRenderer = {
  invoke: vi.fn(async (channel: string): Promise<unknown> => ({ ok: true, value: { channel } })),
  on: vi.fn(),
  removeListener: vi.fn(),
};
const standInElectron = { contextBridge: { exposeInMainWorld: (key: string, api: Momo) => exposed.push([key, api]) }, ipcRenderer };

beforeAll(() => {
  if (!built) return;
  const code = readFileSync(BUNDLE, 'utf8');
  // Wrapped as Node wraps a CommonJS module: an `import` or `export` statement is a SyntaxError here.
  const wrapper = new Script(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, { filename: BUNDLE });
  const load = wrapper.runInContext(createContext({ console })) as (...args: unknown[]) => void;
  const module = { exports: {} };
  const fakeRequire = (id: string) => {
    required.push(id);
    if (id !== 'electron') throw new Error(`a sandboxed preload cannot require ${id}`);
    return standInElectron;
  };
  load(module.exports, fakeRequire, module, BUNDLE, join(BUNDLE, '..'));
});

describe(`preload bundle (built CommonJS in a vm context, stand-in contextBridge, not the real Electron)${built ? '' : ' (skipped: no out/preload/index.cjs; run npx electron-vite build)'}`, () => {
  it.skipIf(!built)('is CommonJS, requires only electron, and exposes exactly window.momo = { invoke, on }', () => {
    expect(readFileSync(BUNDLE, 'utf8')).not.toMatch(/^\s*(import|export)\s/m);
    expect(required).toEqual(['electron']);
    expect(exposed.map(([key]) => key)).toEqual(['momo']);
    const momo = exposed[0]![1];
    expect(Object.keys(momo)).toEqual(['invoke', 'on']);
    expect(Object.isFrozen(momo)).toBe(true);
  });

  it.skipIf(!built)("invoke passes a contract channel through and unwraps the main process's envelope", async () => {
    const momo = exposed[0]![1];
    expect(await momo.invoke('app:status', {})).toEqual({ channel: 'app:status' });
    expect(ipcRenderer.invoke).toHaveBeenLastCalledWith('app:status', {});
    ipcRenderer.invoke.mockResolvedValueOnce({ ok: false, error: { code: 'PIN_REQUIRED', message: 'Owner PIN needed.' } });
    await expect(momo.invoke(IPC_CHANNELS[1]!, {})).rejects.toEqual({ code: 'PIN_REQUIRED', message: 'Owner PIN needed.' });
    const calls = ipcRenderer.invoke.mock.calls.length;
    await expect(momo.invoke('shell:openExternal', {})).rejects.toMatchObject({ code: 'UNKNOWN_CHANNEL' });
    expect(ipcRenderer.invoke.mock.calls.length).toBe(calls);
  });

  it.skipIf(!built)('on subscribes to contract events only and hands back an unsubscribe', () => {
    const momo = exposed[0]![1];
    const listener = vi.fn();
    const off = momo.on(IPC_EVENTS[0]!, listener);
    const [event, wrapped] = ipcRenderer.on.mock.calls.at(-1) as [string, (e: unknown, p: unknown) => void];
    expect(event).toBe(IPC_EVENTS[0]);
    wrapped({ sender: 'not passed on' }, { payload: 1 });
    expect(listener).toHaveBeenCalledWith({ payload: 1 });
    off();
    expect(ipcRenderer.removeListener).toHaveBeenCalledWith(IPC_EVENTS[0], wrapped);
    expect(() => momo.on('ipc:raw', listener)).toThrow(expect.objectContaining({ code: 'UNKNOWN_EVENT' }));
  });
});
