/**
 * What the page gets in place of the desktop app's preload: /momo-bridge.js (momo-bridge.js after the
 * contract's channel and event names), and index.html loading it before the renderer.
 */
import { readFileSync } from 'node:fs';
import { IPC_CHANNEL_NAMES, IPC_EVENT_NAMES } from '../../shared/ipc/channels.js';
import { CALL_HEADER } from './request-guard.js';

export const BRIDGE_PATH = '/momo-bridge.js';
export const INVOKE_PATH = '/momo/invoke';
export const EVENTS_PATH = '/momo/events';

export function bridgeSource(): string {
  const config = {
    channels: IPC_CHANNEL_NAMES,
    events: IPC_EVENT_NAMES,
    invokePath: INVOKE_PATH,
    eventsPath: EVENTS_PATH,
    header: CALL_HEADER,
  };
  const script = readFileSync(new URL('./momo-bridge.js', import.meta.url), 'utf8');
  return `{\nconst MOMO_BRIDGE = ${JSON.stringify(config)};\n${script}}\n`;
}

/** index.html with the bridge loaded first (a classic script in head runs before the renderer's module). */
export function withBridge(indexHtml: string): string {
  return indexHtml.replace('<head>', `<head>\n    <script src="${BRIDGE_PATH}"></script>`);
}
