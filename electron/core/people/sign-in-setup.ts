/** Start-up of sign-in: the owner PIN of an earlier version moves into the staff table; FORBIDDEN's words. */
import { ulid } from 'ulid';
import { CHANNEL_CALLERS, type Caller } from '../../../shared/ipc/roles.js';
import type { IpcChannel } from '../../../shared/ipc/contract.js';
import type { SettingsStore } from '../settings/index.js';
import type { StaffRepo } from './staff-repo.js';

/** Calls the screens make on their own (status, polling): they do not keep a signed-in person from the idle lock. */
export const PASSIVE_CHANNELS: ReadonlySet<IpcChannel> = new Set(['app:status', 'payments:get', 'payments:pending', 'session:people']);

/** An install that already has an owner PIN keeps it: the hash moves into the staff table once. */
export function adoptLegacyOwnerPin(settings: SettingsStore, staff: StaffRepo, now: () => number): void {
  const legacy = settings.settings.pinHash;
  if (!legacy) return;
  if (!staff.owner()) {
    const at = now();
    staff.insert({ id: ulid(at), name: 'Owner', role: 'owner', pin_hash: legacy, created_at: at });
  }
  settings.update({ pinHash: null });
}

/** A refusal that says who may do it, and what to do. */
export function forbiddenMessage(caller: Caller, channel: IpcChannel): string {
  if (caller === 'locked') return 'The till is locked: sign in with your PIN first.';
  const allowed = CHANNEL_CALLERS[channel];
  const who = allowed.includes('manager') ? 'a manager or the owner' : allowed.includes('owner') ? 'the owner' : 'someone signed in';
  return `Only ${who} can do this. Ask them to sign in (tap your name on the status bar to switch).`;
}
