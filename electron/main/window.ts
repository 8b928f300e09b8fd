/** The one window: isolated, sandboxed, no Node, loading app://momo/ (or the dev server). */
import { app, BrowserWindow } from 'electron';
import windowIcon from '../../resources/icons/512x512.png?asset';
import { APP_ORIGIN } from './sender-check.js';

export function createMainWindow(preload: string, devServerUrl: string | null): BrowserWindow {
  const win = new BrowserWindow({
    width: 1024,
    height: 640,
    minWidth: 800,
    minHeight: 560,
    show: false,
    title: 'momo-till',
    icon: windowIcon, // Windows and Linux (macOS shows the bundle's icon.icns)
    backgroundColor: '#ffffff',
    autoHideMenuBar: true,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: !app.isPackaged,
    },
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(devServerUrl ?? `${APP_ORIGIN}/index.html`);
  return win;
}
