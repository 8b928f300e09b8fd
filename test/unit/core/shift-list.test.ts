/** The list of shifts on a real core: a cashier's own only (whatever they ask), a manager's everyone's or one person's, with figures. */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { TillCore } from '../../../electron/core/index.js';
import { openUnitCore, signInShift } from '../../support/unit-core.js';
import { writeShiftPayments } from '../../support/payment-rows.js';

let dir: string;
let core: TillCore;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ dir, core, close } = await openUnitCore('momo-shift-list-'));
});
afterEach(() => close());

const names = async (staffId?: string) => (await core.invoke('shifts:list', staffId ? { staffId } : {})).shifts.map((s) => s.staffName);

it(
  "a cashier lists their own shifts only, even asking for a colleague's; a manager everyone's or one person's",
  { timeout: 30_000 },
  async () => {
    await core.invoke('owner:setPin', { pin: '2468' });
    const kofi = await core.invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: '1357' });
    const ama = await core.invoke('staff:add', { name: 'Ama', role: 'cashier', pin: '8642' });
    await core.invoke('staff:add', { name: 'Efua', role: 'manager', pin: '5791' });
    const kofiShift = await signInShift(core, '1357');
    await signInShift(core, '8642');
    writeShiftPayments(dir, [
      { id: 'K1', shiftId: kofiShift, staffId: kofi.id, name: 'Kofi', state: 'success' },
      { id: 'K2', shiftId: kofiShift, staffId: kofi.id, name: 'Kofi', state: 'failed' },
      { id: 'K3', shiftId: kofiShift, staffId: kofi.id, name: 'Kofi', state: 'awaiting_customer' },
    ]);

    expect(await names()).toEqual(['Ama']);
    expect(await names(kofi.id)).toEqual(['Ama']);

    await signInShift(core, '5791');
    expect(await names()).toEqual(['Efua', 'Ama', 'Kofi']);
    expect(await names(ama.id)).toEqual(['Ama']);
    const [kofiRow] = (await core.invoke('shifts:list', { staffId: kofi.id })).shifts;
    expect(kofiRow).toMatchObject({ id: kofiShift, staffId: kofi.id, closedAt: null, count: 2, net: '0.99', pending: 1 });
  },
);
