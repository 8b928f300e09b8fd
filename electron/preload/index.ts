import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNELS } from '../../shared/ipc/contract';
contextBridge.exposeInMainWorld('momo', { channels: IPC_CHANNELS, x: (c: string) => ipcRenderer.invoke(c) });
