/** Shifts: `shifts:*`: the signed-in person's current shift, the list, one report, closing and printing a shift. */
import { buildShiftReport } from '../../../shared/receipt/build-shift-report.js';
import type { CoreContext } from '../core-context.js';
import type { ChannelsOf, HandlerMap } from '../dispatcher.js';
import { CoreError } from '../errors.js';
import type { Person } from '../people/index.js';
import { printDocuments } from '../printing/index.js';

/** What the shifts' channels use of the core. */
export type ShiftsDeps = Pick<CoreContext, 'shifts' | 'signIn' | 'audit' | 'settings' | 'printing' | 'now'>;

/** A cashier deals with their own shifts only; a manager or the owner with anyone's. */
const seesAll = (person: Person) => person.role !== 'cashier';

export function shiftHandlers(ctx: ShiftsDeps): HandlerMap<ChannelsOf<'shifts'>> {
  const { shifts, signIn } = ctx;
  const me = (): Person => {
    const person = signIn.current();
    if (!person) throw new CoreError('FORBIDDEN', 'Sign in first.');
    return person;
  };
  const shiftFor = (id: string, person: Person) => {
    const row = shifts.get(id);
    if (!row || (!seesAll(person) && row.staff_id !== person.id)) throw new CoreError('NOT_FOUND', 'There is no such shift of yours.');
    return row;
  };

  return {
    'shifts:current': async () => {
      const id = shifts.openOf(me().id);
      const row = id ? shifts.get(id) : null;
      return row ? shifts.report(row) : null;
    },
    'shifts:list': async ({ staffId }) => {
      const person = me();
      return { shifts: shifts.list(seesAll(person) ? staffId : person.id) };
    },
    'shifts:get': async ({ id }) => shifts.report(shiftFor(id, me())),
    'shifts:close': async ({ id }) => {
      const person = me();
      const row = shiftFor(id, person);
      const report = shifts.close(row.id, person);
      if (row.closed_at === null) ctx.audit.record(person, 'shift_close', `${row.staff_name}'s shift`);
      // Closing your own shift is signing out.
      if (row.staff_id === person.id) signIn.signOut();
      return report;
    },
    'shifts:print': async ({ id }) => {
      const { tillName, timeZone, receipt } = ctx.settings.settings;
      const report = shifts.report(shiftFor(id, me()));
      const document = buildShiftReport(report, { settings: receipt, tillName, timeZone, printedAt: new Date(ctx.now()).toISOString() });
      return printDocuments(ctx, `shift:${id}`, [document]);
    },
  };
}
