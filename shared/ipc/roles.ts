/**
 * Who may make each IPC call. The core checks this table before anything else on every call, so a call
 * the signed-in role may not make is refused with FORBIDDEN whatever the screens show. The table is
 * typed over every channel name: a new channel does not compile until it is given its callers.
 *
 * Callers: `locked` (staff exist and nobody is signed in), `anonymous` (no staff configured and the
 * owner not signed in: the one-person shop, working as before staff existed), and the three roles.
 */
import type { IpcChannelName } from './channels.js';

export const STAFF_ROLES = ['owner', 'manager', 'cashier'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const CALLERS = ['locked', 'anonymous', 'cashier', 'manager', 'owner'] as const;
export type Caller = (typeof CALLERS)[number];

const EVERYONE: readonly Caller[] = CALLERS;
const SELLERS: readonly Caller[] = ['anonymous', 'cashier', 'manager', 'owner'];
const SIGNED_IN: readonly Caller[] = ['cashier', 'manager', 'owner'];
const MANAGERS: readonly Caller[] = ['manager', 'owner'];
const OWNER: readonly Caller[] = ['owner'];

export const CHANNEL_CALLERS: { readonly [C in IpcChannelName]: readonly Caller[] } = {
  'app:status': EVERYONE,
  // Setting the first owner PIN (nobody owns the till yet) or changing it (the owner): checked in the handler.
  'owner:setPin': EVERYONE,
  'owner:unlock': EVERYONE,
  'owner:lock': EVERYONE,
  'session:people': EVERYONE,
  'session:signIn': EVERYONE,
  'session:lock': EVERYONE,
  'session:signOut': SIGNED_IN,
  'session:touch': EVERYONE,
  'settings:get': OWNER,
  // The version and update state are shown in Settings; restarting the till into an update is the owner's choice.
  'updates:status': OWNER,
  'updates:restart': OWNER,
  'settings:save': OWNER,
  'settings:saveTill': OWNER,
  'settings:saveCounter': OWNER,
  'receipt:saveSettings': OWNER,
  'receipt:testPrint': OWNER,
  'printer:list': OWNER,
  'settings:testConnection': OWNER,
  'settings:liveMissing': OWNER,
  'settings:setEnvironment': OWNER,
  'staff:list': OWNER,
  'staff:add': OWNER,
  'staff:update': OWNER,
  'shifts:current': SIGNED_IN,
  'shifts:list': SIGNED_IN,
  'shifts:get': SIGNED_IN,
  'shifts:close': SIGNED_IN,
  'shifts:print': SIGNED_IN,
  'audit:list': OWNER,
  'audit:exportCsv': OWNER,
  'payments:resolveAccount': SELLERS,
  'payments:charge': SELLERS,
  'payments:similar': SELLERS,
  'payments:get': SELLERS,
  'payments:stopWaiting': SELLERS,
  // Not at the lock: the screens read the open payments, and what happened to those a restart left open,
  // once someone has signed in (a cashier only their own shift's).
  'payments:pending': SELLERS,
  'payments:settle': MANAGERS,
  'alerts:list': OWNER,
  'alerts:acknowledge': OWNER,
  // A phone link shows the whole shop's takings: the owner alone makes, lists and turns them off.
  'owner-links:create': OWNER,
  'owner-links:list': OWNER,
  'owner-links:revoke': OWNER,
  'owner-links:revokeDevice': OWNER,
  'owner-links:invite': OWNER,
  'history:search': SELLERS,
  'receipt:preview': SELLERS,
  'receipt:print': SELLERS,
  'printer:printPage': SELLERS,
  'takings:report': MANAGERS,
  'takings:exportCsv': MANAGERS,
  'day:xReport': MANAGERS,
  'day:close': MANAGERS,
  'day:list': MANAGERS,
  'day:get': MANAGERS,
  'day:exportCsv': MANAGERS,
  'day:print': MANAGERS,
};

export function mayCall(caller: Caller, channel: IpcChannelName): boolean {
  return CHANNEL_CALLERS[channel].includes(caller);
}
