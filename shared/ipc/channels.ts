/**
 * The NAMES of the IPC channels and events, and nothing else: no zod, no schemas.
 * The preload imports only this module so its sandboxed bundle stays tiny; shared/ipc/contract.ts
 * checks at compile time that these lists and the contract's keys are the same.
 */
export const IPC_CHANNEL_NAMES = [
  'app:status',
  'owner:setPin',
  'owner:unlock',
  'owner:lock',
  'session:people',
  'session:signIn',
  'session:lock',
  'session:signOut',
  'session:touch',
  'staff:list',
  'staff:add',
  'staff:update',
  'shifts:current',
  'shifts:list',
  'shifts:get',
  'shifts:close',
  'shifts:print',
  'audit:list',
  'audit:exportCsv',
  'settings:get',
  'settings:save',
  'settings:saveTill',
  'settings:saveCounter',
  'settings:testConnection',
  'settings:liveMissing',
  'settings:setEnvironment',
  'payments:resolveAccount',
  'payments:charge',
  'payments:similar',
  'payments:get',
  'payments:stopWaiting',
  'payments:pending',
  'payments:settle',
  'alerts:list',
  'alerts:acknowledge',
  'owner-links:create',
  'owner-links:list',
  'owner-links:revoke',
  'owner-links:revokeDevice',
  'owner-links:invite',
  'history:search',
  'takings:report',
  'takings:exportCsv',
  'receipt:preview',
  'receipt:print',
  'receipt:testPrint',
  'printer:printPage',
  'printer:list',
  'receipt:saveSettings',
  'day:xReport',
  'day:close',
  'day:list',
  'day:get',
  'day:exportCsv',
  'day:print',
  'updates:status',
  'updates:restart',
] as const;

export const IPC_EVENT_NAMES = [
  'payment:updated',
  'relay:state',
  'app:changed',
  'owner:changed',
  'session:changed',
  'alerts:changed',
] as const;

export type IpcChannelName = (typeof IPC_CHANNEL_NAMES)[number];
export type IpcEventName = (typeof IPC_EVENT_NAMES)[number];

/**
 * What crosses the IPC boundary from a handler: the main process never throws across IPC (Electron
 * would flatten the error into a string with a stack); it returns this envelope and the preload unwraps it.
 */
export type IpcEnvelope = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string; field?: string } };
