/** History by role on a real core: a cashier sees only their own open shift's payments, a manager all. */
import { expect, it } from 'vitest';
import { signInShift, unitCorePerTest } from '../../../support/unit-core.js';
import { writeShiftPayments, type ShiftPayment } from '../../../support/payment-rows.js';

const unit = unitCorePerTest('momo-history-scope-');

const PINS = { kofi: '1357', ama: '8642', efua: '5791' };

const shiftOf = (pin: string) => signInShift(unit.core, pin);
const paymentsIn = (rows: ShiftPayment[]) => writeShiftPayments(unit.dir, rows);

const ids = async (query?: string) => (await unit.core.invoke('history:search', query ? { query } : {})).items.map((p) => p.id).sort();

it(
  "a cashier's history holds only their own open shift's payments, whatever they search; a manager's holds all",
  { timeout: 30_000 },
  async () => {
    await unit.core.invoke('owner:setPin', { pin: '2468' });
    const kofi = await unit.core.invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: PINS.kofi });
    const ama = await unit.core.invoke('staff:add', { name: 'Ama', role: 'cashier', pin: PINS.ama });
    await unit.core.invoke('staff:add', { name: 'Efua', role: 'manager', pin: PINS.efua });

    const kofiOld = await shiftOf(PINS.kofi);
    await unit.core.invoke('session:signOut', {}); // closes Kofi's first shift
    const amaShift = await shiftOf(PINS.ama);
    const kofiNow = await shiftOf(PINS.kofi); // Kofi's second shift; Ama's stays open
    paymentsIn([
      { id: 'P-KOFI-OLD', shiftId: kofiOld, staffId: kofi.id, name: 'Kofi' },
      { id: 'P-AMA', shiftId: amaShift, staffId: ama.id, name: 'Ama' },
      { id: 'P-KOFI-NOW', shiftId: kofiNow, staffId: kofi.id, name: 'Kofi' },
    ]);

    // Kofi (signed in now): his open shift only, not his earlier shift nor Ama's, also when searching.
    expect(await ids()).toEqual(['P-KOFI-NOW']);
    expect((await unit.core.invoke('history:search', {})).total).toBe(1);
    expect(await ids('m-P-AMA')).toEqual([]);
    expect(await ids('024 123 4567')).toEqual(['P-KOFI-NOW']);
    // Asking for a colleague's payments changes nothing: a cashier's history is their open shift's.
    expect((await unit.core.invoke('history:search', { cashierId: ama.id })).items.map((p) => p.id)).toEqual(['P-KOFI-NOW']);

    await unit.core.invoke('session:signIn', { pin: PINS.ama });
    expect(await ids()).toEqual(['P-AMA']);

    await unit.core.invoke('session:signIn', { pin: PINS.efua });
    expect(await ids()).toEqual(['P-AMA', 'P-KOFI-NOW', 'P-KOFI-OLD']);
    expect((await unit.core.invoke('history:search', {})).total).toBe(3);
    // A manager may show one person's payments, or those started with nobody signed in.
    const of = async (cashierId: string | null) => (await unit.core.invoke('history:search', { cashierId })).items.map((p) => p.id).sort();
    expect(await of(kofi.id)).toEqual(['P-KOFI-NOW', 'P-KOFI-OLD']);
    expect((await unit.core.invoke('history:search', { cashierId: kofi.id, query: 'm-P-KOFI-O' })).total).toBe(1);
    expect(await of(null)).toEqual([]);
  },
);

it('with no staff (the one-person shop) history holds every payment', async () => {
  paymentsIn([
    { id: 'P-1', shiftId: 'S1', staffId: 'x', name: 'X' },
    { id: 'P-2', shiftId: 'S2', staffId: 'y', name: 'Y' },
  ]);
  expect(await ids()).toEqual(['P-1', 'P-2']);
});
