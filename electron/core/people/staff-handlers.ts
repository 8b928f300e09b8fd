/** The owner's staff list and the audit log: `staff:*`, `audit:*`. */
import { ulid } from 'ulid';
import type { StaffMember } from '../../../shared/ipc/contract.js';
import type { CoreContext } from '../core-context.js';
import type { ChannelsOf, HandlerMap } from '../dispatcher.js';
import { CoreError } from '../errors.js';
import { dayBoundsMs } from '../history/index.js';
import { hashPin, pinProblem, PIN_TAKEN_MESSAGE, verifyPin } from './pin.js';
import type { StaffRepo, StaffRow } from './staff-repo.js';

/** A new PIN: its digits, then every other person's hash (inactive people too: they may come back). */
export async function checkNewPin(staff: StaffRepo, pin: string, exceptId?: string): Promise<void> {
  const problem = pinProblem(pin);
  if (problem) throw new CoreError('PIN_INVALID', problem, 'pin');
  for (const row of staff.all()) {
    if (row.id !== exceptId && (await verifyPin(pin, row.pin_hash))) throw new CoreError('PIN_TAKEN', PIN_TAKEN_MESSAGE, 'pin');
  }
}

export function staffHandlers(ctx: CoreContext): HandlerMap<ChannelsOf<'staff' | 'audit'>> {
  const { staff, signIn, audit } = ctx;
  const actor = () => signIn.current();

  const member = (row: StaffRow): StaffMember => ({
    id: row.id,
    name: row.name,
    role: row.role,
    active: row.active === 1,
    lockedForSeconds: Math.ceil(ctx.guard.lockedFor(row.id) / 1000),
  });

  const checkName = (name: string, exceptId?: string) => {
    const taken = staff.all().some((r) => r.id !== exceptId && r.active === 1 && r.name.toLowerCase() === name.toLowerCase());
    if (taken) throw new CoreError('NAME_TAKEN', `Someone on this till is already called "${name}": add a surname or an initial.`, 'name');
  };

  const auditRange = (from?: string, to?: string) => {
    const zone = ctx.settings.settings.timeZone;
    return { from: from ? dayBoundsMs(from, zone)[0] : undefined, to: to ? dayBoundsMs(to, zone)[1] : undefined };
  };

  return {
    'staff:list': async () => ({ staff: staff.all().map(member), ownerSet: staff.owner() !== null }),

    'staff:add': async ({ name, role, pin }) => {
      checkName(name);
      await checkNewPin(staff, pin);
      const at = ctx.now();
      const id = ulid(at);
      staff.insert({ id, name, role, pin_hash: await hashPin(pin), created_at: at });
      audit.record(actor(), 'staff_added', `${name} (${role})`);
      return member(staff.get(id) as StaffRow);
    },

    'staff:update': async ({ id, name, role, active, pin }) => {
      const row = staff.get(id);
      if (!row) throw new CoreError('NOT_FOUND', 'This person is not on this till any more.');
      if ((row.role === 'owner') !== (role === 'owner'))
        throw new CoreError('SETTINGS_INVALID', 'The owner stays the owner; nobody else can be made owner.', 'role');
      if (row.role === 'owner' && !active) throw new CoreError('SETTINGS_INVALID', 'The owner cannot be disabled.', 'active');
      if (active) checkName(name, id);
      if (pin) await checkNewPin(staff, pin, id);
      const changed = [
        name !== row.name ? `name ${row.name} → ${name}` : '',
        role !== row.role ? `role ${row.role} → ${role}` : '',
        active !== (row.active === 1) ? (active ? 'enabled' : 'disabled') : '',
        pin ? 'PIN changed' : '',
      ].filter(Boolean);
      staff.update(id, { name, role, active: active ? 1 : 0 }, ctx.now());
      if (pin) staff.setPin(id, await hashPin(pin), ctx.now());
      if (changed.length > 0) audit.record(actor(), 'staff_changed', `${row.name}: ${changed.join(', ')}`);
      signIn.refresh(id);
      return member(staff.get(id) as StaffRow);
    },

    'audit:list': async ({ action, actorId, from, to }) => ({ entries: audit.list({ action, actorId, ...auditRange(from, to) }) }),

    'audit:exportCsv': async ({ action, actorId, from, to }) => ({
      filename: `momo-audit-${from ?? 'start'}_${to ?? 'now'}.csv`,
      csv: audit.exportCsv({ action, actorId, ...auditRange(from, to) }, ctx.settings.settings.timeZone),
    }),
  };
}
