/**
 * Shell wiring (stand-in electron module, not the real Electron): electron/main is loaded against a
 * recording stand-in for `electron` (test/unit/shell/stand-in-electron.ts) and a stand-in till core,
 * and the test checks what the shell asks of Electron: every contract channel handled, the window's
 * webPreferences, the CSP, the app:// scheme, the navigation and permission handlers. Then the BUILT
 * preload bundle runs in a vm context with a stand-in contextBridge. This proves the wiring; that
 * Electron honours it is for test/electron (skipped without the binary).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS, IPC_EVENTS } from '../../../shared/ipc/contract.js';
import { CONTENT_SECURITY_POLICY } from '../../../electron/main/csp.js';
import { CLOSE_AND_DISCARD, KEEP_EDITING } from '../../../electron/main/close-question.js';
import { app, calls, session, StandInContents, type StandInWindow } from './stand-in-electron.js';

const core = vi.hoisted(() => ({
  invoked: [] as Array<[string, unknown]>,
  listeners: new Map<string, (payload: unknown) => void>(),
  closes: 0,
}));

vi.mock('electron', async () => (await import('./stand-in-electron.js')).electron);
vi.mock('../../../resources/icons/512x512.png?asset', () => ({ default: '/stand-in/icon.png' }));
vi.mock('../../../electron/core/index.js', () => ({
  createTillCore: async () => ({
    // The shell hands a trusted call to the core's answer (the core validates it and builds the envelope).
    answer: async (channel: string, payload: unknown) => {
      core.invoked.push([channel, payload]);
      return { ok: true, value: { answeredBy: 'stand-in core', channel } };
    },
    on: (event: string, listener: (payload: unknown) => void) => {
      core.listeners.set(event, listener);
      return () => core.listeners.delete(event);
    },
    close: async () => {
      core.closes += 1;
    },
  }),
}));

const TOP_FRAME = { senderFrame: { url: 'app://momo/index.html', parent: null } };
let win: StandInWindow;

beforeAll(async () => {
  for (const name of ['ELECTRON_RENDERER_URL', 'MOMO_DATA_DIR', 'MOMO_SQLITE_BINDING']) vi.stubEnv(name, undefined);
  await import('../../../electron/main/index.js');
  await vi.waitFor(() => expect(calls.windows).toHaveLength(1));
  win = calls.windows[0] as StandInWindow;
});

afterAll(() => vi.unstubAllEnvs());

describe('shell wiring (stand-in electron module, not the real Electron)', () => {
  it('sandboxes every renderer and makes app:// a standard, secure scheme before the app is ready', () => {
    expect(app.sandboxEnabled).toBe(true);
    expect(calls.order.indexOf('enableSandbox')).toBeLessThan(calls.order.indexOf('whenReady'));
    expect(calls.order.indexOf('registerSchemesAsPrivileged')).toBeLessThan(calls.order.indexOf('whenReady'));
    expect(calls.privilegedSchemes).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
    expect(calls.order.filter((c) => c.startsWith('error'))).toEqual([]);
  });

  it('handles every contract channel and nothing else; only our top frame reaches the core', async () => {
    expect([...calls.handlers.keys()].sort()).toEqual([...IPC_CHANNELS].sort());
    const status = calls.handlers.get('app:status')!;
    expect(await status(TOP_FRAME, {})).toEqual({ ok: true, value: { answeredBy: 'stand-in core', channel: 'app:status' } });
    expect(core.invoked).toEqual([['app:status', {}]]);
    for (const senderFrame of [{ url: 'https://evil.example/', parent: null }, { url: 'app://momo/index.html', parent: {} }, null]) {
      expect(await status({ senderFrame }, {})).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    }
    expect(core.invoked).toHaveLength(1);
  });

  it('opens one window: context isolation, sandbox, no Node, the CommonJS preload, app://momo, the app icon', () => {
    const preferences = win.options.webPreferences as Record<string, unknown>;
    for (const on of ['contextIsolation', 'sandbox', 'webSecurity']) expect(preferences[on], on).toBe(true);
    for (const off of [
      'nodeIntegration',
      'nodeIntegrationInWorker',
      'nodeIntegrationInSubFrames',
      'allowRunningInsecureContent',
      'webviewTag',
    ])
      expect(preferences[off], off).toBe(false);
    expect(String(preferences.preload)).toMatch(new RegExp(`\\${sep}preload\\${sep}index\\.cjs$`));
    expect(win.loadedUrl).toBe('app://momo/index.html');
    expect(win.options.icon).toBe('/stand-in/icon.png');
  });

  it("forwards each core event to the window's renderer", () => {
    expect([...core.listeners.keys()].sort()).toEqual([...IPC_EVENTS].sort());
    const event = IPC_EVENTS[0]!;
    core.listeners.get(event)?.({ seen: true });
    expect(win.webContents.sent).toEqual([[event, { seen: true }]]);
  });

  it('puts the CSP on every response and serves app:// files with it', async () => {
    let headers: Record<string, string[]> = {};
    session.defaultSession.headersReceived?.(
      { url: 'app://momo/index.html', responseHeaders: { 'X-Kept': ['1'] } },
      (r: { responseHeaders: Record<string, string[]> }) => {
        headers = r.responseHeaders;
      },
    );
    expect(headers).toEqual({ 'X-Kept': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
    const serve = calls.protocolHandlers.get('app')!;
    expect((await serve(new Request('app://momo/../../etc/passwd'))).status).toBe(404);

    const { handleAppProtocol } = await import('../../../electron/main/app-protocol.js');
    const renderer = mkdtempSync(join(tmpdir(), 'momo-wiring-'));
    try {
      writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>till</title>');
      handleAppProtocol(renderer);
      const page = await calls.protocolHandlers.get('app')!(new Request('app://momo/index.html'));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await calls.protocolHandlers.get('app')!(new Request('app://momo/index.html', { method: 'POST' }))).status).toBe(404);
    } finally {
      rmSync(renderer, { recursive: true, force: true });
    }
  });

  it('refuses new windows, navigation and redirects away from app://momo, subframe navigation and webviews', () => {
    const contents = new StandInContents();
    app.emit('web-contents-created', {}, contents);
    expect(contents.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    const prevented = (event: string, ...args: unknown[]) => {
      const preventDefault = vi.fn();
      contents.emit(event, { preventDefault, ...(args[1] as object) }, args[0]);
      return preventDefault.mock.calls.length > 0;
    };
    expect(prevented('will-navigate', 'https://evil.example/')).toBe(true);
    expect(prevented('will-navigate', 'app://momo/history')).toBe(false);
    expect(prevented('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(prevented('will-frame-navigate', undefined, { isMainFrame: false, url: 'app://momo/x' })).toBe(true);
    expect(prevented('will-frame-navigate', undefined, { isMainFrame: true, url: 'app://momo/x' })).toBe(false);
    expect(prevented('will-attach-webview')).toBe(true);
  });

  it('denies every permission, and cancels every request that is not the app’s own', () => {
    const s = session.defaultSession;
    const granted = vi.fn();
    s.permissionRequest?.({}, 'media', granted);
    expect(granted).toHaveBeenCalledWith(false);
    expect(s.permissionCheck?.({}, 'geolocation')).toBe(false);
    expect(s.devicePermission?.({ deviceType: 'usb' })).toBe(false);
    const cancelled = (url: string) => {
      let answer: { cancel: boolean } | undefined;
      s.beforeRequest?.({ url }, (a: { cancel: boolean }) => (answer = a));
      return answer?.cancel;
    };
    expect(cancelled('https://evil.example/x.js')).toBe(true);
    expect(cancelled('app://momo/assets/main.js')).toBe(false);
    const preventDefault = vi.fn();
    s.emit('will-download', { preventDefault }, { getURL: () => 'https://evil.example/a.exe', getFilename: () => 'a.exe' });
    expect(preventDefault).toHaveBeenCalled();
  });

  it('a second launch brings the existing window forward', () => {
    app.emit('second-instance');
    expect(win.focused).toBe(true);
  });

  it('asks over the window when its page holds unsaved edits; only "Close and discard" lets it unload', () => {
    const unloads = (answer: number) => {
      calls.nextAnswer = answer;
      const preventDefault = vi.fn(); // on will-prevent-unload: ignore the page's beforeunload, unload anyway
      win.webContents.emit('will-prevent-unload', { preventDefault });
      return preventDefault.mock.calls.length > 0;
    };
    expect(unloads(KEEP_EDITING)).toBe(false);
    expect(unloads(CLOSE_AND_DISCARD)).toBe(true);
    expect(calls.messageBoxes.map((box) => box.window)).toEqual([win, win]);
    expect(calls.messageBoxes[0]!.options).toMatchObject({
      type: 'question',
      message: 'Discard unsaved changes?',
      buttons: ['Keep editing', 'Close and discard'],
      defaultId: KEEP_EDITING,
      cancelId: KEEP_EDITING,
    });
  });

  // Last: the shell is quitting after it.
  it('closes the core only after every window has closed (will-quit), not before the windows are asked', async () => {
    app.emit('before-quit', { preventDefault: vi.fn() });
    expect(core.closes).toBe(0);
    const held = vi.fn();
    app.emit('will-quit', { preventDefault: held });
    expect(held).toHaveBeenCalledOnce();
    await vi.waitFor(() => expect(calls.order.at(-1)).toBe('quit'));
    expect(core.closes).toBe(1);
    // The quit asked again once the core has closed goes through.
    const again = vi.fn();
    app.emit('will-quit', { preventDefault: again });
    expect(again).not.toHaveBeenCalled();
    expect(core.closes).toBe(1);
  });
});
