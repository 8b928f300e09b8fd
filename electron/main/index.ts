/**
 * The Electron shell, kept thin: single instance, hardened window and session, the renderer over
 * app://momo/, the core (electron/core) started in this process and reached only through the
 * contract's IPC channels.
 */
import { app, BrowserWindow, dialog, ipcMain, session } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTillCore, type TillCore } from '../core/index.js';
import { handleAppProtocol, registerAppScheme } from './app-protocol.js';
import { forwardEvents, registerIpc } from './ipc.js';
import { installNativeBinding } from './native-binding.js';
import { hardenContents, hardenSession } from './security.js';
import { createSystemPrinter } from './system-printer.js';
import { appUpdater } from './updater.js';
import { createMainWindow } from './window.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const devServerUrl = !app.isPackaged && process.env.ELECTRON_RENDERER_URL ? process.env.ELECTRON_RENDERER_URL : null;

app.enableSandbox();
registerAppScheme();
// Tests and development may point the till at a throw-away data folder; a packaged app never does.
if (!app.isPackaged && process.env.MOMO_DATA_DIR) app.setPath('userData', process.env.MOMO_DATA_DIR);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let win: BrowserWindow | null = null;
  let core: TillCore | null = null;

  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, devServerUrl));
  app.on('window-all-closed', () => app.quit());

  // The core closes once every window has: a window whose page holds unsaved Settings edits asks first
  // (window.ts), and "Keep editing" cancels the quit with the core still open. ('before-quit' comes
  // before the windows are asked, so closing the core there would leave a kept window without it.)
  let quitting = false;
  app.on('will-quit', (event) => {
    if (quitting || !core) return;
    event.preventDefault();
    quitting = true;
    void core.close().finally(() => app.quit());
  });

  void app.whenReady().then(async () => {
    hardenSession(session.defaultSession, devServerUrl);
    handleAppProtocol(join(here, '../renderer'));
    try {
      const nativeBinding = installNativeBinding(process.env, app.isPackaged);
      core = await createTillCore({
        dataDir: app.getPath('userData'),
        nativeBinding,
        version: app.getVersion(),
        systemPrinter: createSystemPrinter(() => win),
        updater: await appUpdater(app.isPackaged, process.resourcesPath),
      });
    } catch (error) {
      const message = (error as { message?: string }).message ?? String(error);
      dialog.showErrorBox('momo-till cannot start', message);
      app.exit(1);
      return;
    }
    registerIpc(ipcMain, core, devServerUrl);
    forwardEvents(core, () => win);
    win = createMainWindow(join(here, '../preload/index.cjs'), devServerUrl);
    win.on('closed', () => {
      win = null;
    });
  });
}
