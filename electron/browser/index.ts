/**
 * Browser mode, the desktop app's sibling shell: the till core under plain Node, on the desktop app's
 * data folder and keychain entries, its renderer served on loopback to a browser. Others use
 * `startBrowserMode` (the launcher), `startBrowserServer` (the browser tests' transport) and the
 * data folder's path.
 */
import { createTillCore, type TillCoreOptions } from '../core/index.js';
import { writeRuntimeFile } from './runtime-file.js';
import { startBrowserServer, type BrowserServer } from './server.js';

export { desktopDataDir } from './data-dir.js';
export { launchUrlOfRunning, RUNTIME_FILE } from './runtime-file.js';
export { openBrowser, hasDisplay } from './open-browser.js';
export { startBrowserServer, SECURITY_HEADERS, type BrowserServer, type CoreSurface } from './server.js';
export { CALL_HEADER, cookieName } from './request-guard.js';
export { EVENTS_PATH, INVOKE_PATH } from './page-bridge.js';

export type BrowserMode = { server: BrowserServer; close(): Promise<void> };

export async function startBrowserMode(options: {
  dataDir: string;
  rendererDir: string;
  version?: string;
  core?: Partial<TillCoreOptions>;
}): Promise<BrowserMode> {
  const core = await createTillCore({ ...options.core, dataDir: options.dataDir, version: options.version, shell: 'browser' });
  let server: BrowserServer;
  try {
    server = await startBrowserServer(core, options.rendererDir);
  } catch (error) {
    await core.close();
    throw error;
  }
  const removeRuntime = writeRuntimeFile(options.dataDir, { pid: process.pid, origin: server.origin, control: server.control });
  let closing: Promise<void> | null = null;
  return {
    server,
    close: () => {
      closing ??= (async () => {
        removeRuntime();
        await server.close();
        await core.close();
      })();
      return closing;
    },
  };
}
