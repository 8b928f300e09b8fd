/**
 * IPC handlers registered in a loop from the contract: each checks the sender (top frame of our own
 * origin; a null frame is refused) and hands the payload to the core, which validates it once and
 * answers with an envelope (never a thrown error, which Electron would flatten into a string with a stack).
 */
import type { BrowserWindow, IpcMain, IpcMainInvokeEvent } from 'electron';
import { IPC_CHANNELS, IPC_EVENTS } from '../../shared/ipc/contract.js';
import type { IpcEnvelope } from '../../shared/ipc/channels.js';
import type { TillCore } from '../core/index.js';
import { isTrustedSender } from './sender-check.js';

export function registerIpc(ipcMain: IpcMain, core: TillCore, devServerUrl: string | null): void {
  for (const channel of IPC_CHANNELS) {
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, payload: unknown): Promise<IpcEnvelope> => {
      if (!isTrustedSender(event.senderFrame, devServerUrl)) {
        return { ok: false, error: { code: 'FORBIDDEN_SENDER', message: 'This window may not call the till.' } };
      }
      return core.answer(channel, payload);
    });
  }
}

/** Core events go to the window's top frame only. */
export function forwardEvents(core: TillCore, window: () => BrowserWindow | null): Array<() => void> {
  return IPC_EVENTS.map((name) =>
    core.on(name, (payload) => {
      const win = window();
      if (win && !win.isDestroyed()) win.webContents.send(name, payload);
    }),
  );
}
