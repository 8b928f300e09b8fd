/**
 * Shifts on a real core: the list (a cashier's own only, whatever they ask; a manager's everyone's or one
 * person's, with figures), and a report of one environment, LIVE first, the other's payments counted apart.
 */
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

it(
  "a shift's report is of LIVE once it took a LIVE payment; its TEST payments are counted apart, printed and shown",
  { timeout: 30_000 },
  async () => {
    await core.invoke('owner:setPin', { pin: '2468' });
    const kofi = await core.invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: '1357' });
    const shift = await signInShift(core, '1357');
    const k = { shiftId: shift, staffId: kofi.id, name: 'Kofi' };
    writeShiftPayments(dir, [{ id: 'T1', ...k, state: 'success' }]);
    expect(await core.invoke('shifts:current', {})).toMatchObject({ environment: 'test', otherEnvironment: 0, totals: { count: 1 } });
    writeShiftPayments(dir, [
      { id: 'L1', ...k, state: 'success', environment: 'live' },
      { id: 'L2', ...k, state: 'failed', environment: 'live' },
      { id: 'T2', ...k, state: 'awaiting_customer' },
    ]);
    const report = await core.invoke('shifts:current', {});
    expect(report).toMatchObject({
      environment: 'live',
      otherEnvironment: 2,
      totals: { count: 2, succeeded: 1, failed: 1, gross: '1.00' },
    });
    expect(report?.pending).toEqual([]); // T2 waits in TEST: not this LIVE report's
    const [document] = (await core.invoke('shifts:print', { id: shift })).documents;
    const texts = document!.blocks.map((b) => ('text' in b ? b.text : ''));
    expect(texts).toContain('2 payments in TEST (sandbox) during this shift: not in these figures.');
    expect(texts.join('\n')).not.toMatch(/SANDBOX/);
  },
);
