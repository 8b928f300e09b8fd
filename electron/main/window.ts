/** The one window: isolated, sandboxed, no Node, loading app://momo/ (or the dev server). */
import { app, BrowserWindow, dialog } from 'electron';
import windowIcon from '../../resources/icons/512x512.png?asset';
import { closeQuestion, closesAfter } from './close-question.js';
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
  // The page holds the close only while Settings has unsaved edits: ask, and let it unload (preventDefault)
  // only when "Close and discard" was chosen. Enter, Escape and closing the box keep editing.
  win.webContents.on('will-prevent-unload', (event) => {
    if (closesAfter(dialog.showMessageBoxSync(win, closeQuestion()))) event.preventDefault();
  });
  void win.loadURL(devServerUrl ?? `${APP_ORIGIN}/index.html`);
  return win;
}
