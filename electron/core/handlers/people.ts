/** Handlers for the people at the till: the owner PIN and sign-in (`owner:*`, `session:*`); staff and the audit log are in staff-handlers.ts. */
import { ulid } from 'ulid';
import type { ChannelsOf, HandlerMap } from '../dispatcher.js';
import { CoreError } from '../errors.js';
import { hashPin, verifyPin } from './pin.js';
import type { CoreContext } from '../core-context.js';
import { checkNewPin } from './staff-handlers.js';

export function createPeopleHandlers(ctx: CoreContext): HandlerMap<ChannelsOf<'owner' | 'session'>> {
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

export { staffHandlers } from './staff-handlers.js';
