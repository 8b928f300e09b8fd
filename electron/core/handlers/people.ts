/**
 * The people at the till: the owner PIN and sign-in (`owner:*`, `session:*`), and the owner's staff list
 * and audit log (`staff:*`, `audit:*`).
 */
import { ulid } from 'ulid';
import type { StaffMember } from '../../../shared/ipc/contract.js';
import type { CoreContext } from '../core-context.js';
import type { ChannelsOf, HandlerMap } from '../dispatcher.js';
import { CoreError } from '../errors.js';
import { dayBoundsMs } from '../history/index.js';
import { checkNewPin, hashPin, verifyPin, type StaffRow } from '../people/index.js';

/** What the owner PIN's and sign-in's channels use of the core. */
export type PeopleDeps = Pick<CoreContext, 'staff' | 'signIn' | 'audit' | 'guard' | 'log' | 'now'>;

export function peopleHandlers(ctx: PeopleDeps): HandlerMap<ChannelsOf<'owner' | 'session'>> {
  const { staff, signIn, audit } = ctx;
  const actor = () => signIn.current();

  return {
    'owner:setPin': async ({ pin, currentPin }) => {
      const owner = staff.owner();
      if (owner) {
        if (signIn.caller() !== 'owner') throw new CoreError('FORBIDDEN', 'Only the owner can change the owner PIN.');
        if (!currentPin) throw new CoreError('WRONG_PIN', 'Enter the current PIN to change it.', 'currentPin');
        const checked = await ctx.guard.attempt(owner.id, async () => ((await verifyPin(currentPin, owner.pin_hash)) ? true : null));
        if (!checked.value) throw new CoreError('WRONG_PIN', 'The current PIN is not right.', 'currentPin');
        await checkNewPin(staff, pin, owner.id);
        staff.setPin(owner.id, await hashPin(pin), ctx.now());
        audit.record(actor(), 'owner_pin_set', 'changed');
        return { ok: true };
      }
      await checkNewPin(staff, pin);
      const at = ctx.now();
      staff.insert({ id: ulid(at), name: 'Owner', role: 'owner', pin_hash: await hashPin(pin), created_at: at });
      audit.record(null, 'owner_pin_set', 'first start');
      ctx.log.info('owner.pin_set', { first: true });
      await signIn.signIn(pin, staff.owner()?.id);
      return { ok: true };
    },

    'owner:unlock': async ({ pin }) => {
      const owner = staff.owner();
      if (!owner) return { ok: false, message: 'Set an owner PIN first.' };
      try {
        await signIn.signIn(pin, owner.id);
        return { ok: true };
      } catch (error) {
        if (!(error instanceof CoreError)) throw error;
        ctx.log.warn('owner.unlock_refused', {});
        return { ok: false, message: error.message };
      }
    },

    // The one-person shop leaves the owner screens; with staff, people lock or switch from the status bar.
    'owner:lock': async () => {
      if (!staff.hasStaff() && signIn.caller() === 'owner') signIn.lock();
      return { ok: true };
    },

    'session:people': async () => ({
      people: staff.hasStaff() ? staff.active().map((r) => ({ id: r.id, name: r.name, role: r.role })) : [],
    }),

    'session:signIn': async ({ pin, staffId }) => ({ person: await signIn.signIn(pin, staffId) }),

    'session:lock': async () => {
      signIn.lock();
      return { ok: true };
    },

    'session:signOut': async () => {
      signIn.signOut();
      return { ok: true };
    },

    'session:touch': async () => {
      signIn.touch();
      return { ok: true };
    },
  };
}

/** What the staff list's and audit log's channels use of the core. */
export type StaffDeps = Pick<CoreContext, 'staff' | 'signIn' | 'audit' | 'guard' | 'settings' | 'now'>;

export function staffHandlers(ctx: StaffDeps): HandlerMap<ChannelsOf<'staff' | 'audit'>> {
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
