/**
 * Shifts on a real core: the list (a cashier's own only, whatever they ask; a manager's everyone's or one
 * person's, with figures), and a report of one environment, LIVE first, the other's payments counted apart.
 */
import { expect, it } from 'vitest';
import { signInShift, unitCorePerTest } from '../../../support/unit-core.js';
import { writeShiftPayments } from '../../../support/payment-rows.js';

const unit = unitCorePerTest('momo-shift-list-');

/** The owner PIN set, and Kofi added as a cashier (PIN 1357). */
async function ownerAndKofi() {
  await unit.core.invoke('owner:setPin', { pin: '2468' });
  return unit.core.invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: '1357' });
}

const names = async (staffId?: string) =>
  (await unit.core.invoke('shifts:list', staffId ? { staffId } : {})).shifts.map((s) => s.staffName);

it(
  "a cashier lists their own shifts only, even asking for a colleague's; a manager everyone's or one person's",
  { timeout: 30_000 },
  async () => {
    const kofi = await ownerAndKofi();
    const ama = await unit.core.invoke('staff:add', { name: 'Ama', role: 'cashier', pin: '8642' });
    await unit.core.invoke('staff:add', { name: 'Efua', role: 'manager', pin: '5791' });
    const kofiShift = await signInShift(unit.core, '1357');
    await signInShift(unit.core, '8642');
    writeShiftPayments(unit.dir, [
      { id: 'K1', shiftId: kofiShift, staffId: kofi.id, name: 'Kofi', state: 'success' },
      { id: 'K2', shiftId: kofiShift, staffId: kofi.id, name: 'Kofi', state: 'failed' },
      { id: 'K3', shiftId: kofiShift, staffId: kofi.id, name: 'Kofi', state: 'awaiting_customer' },
    ]);

    expect(await names()).toEqual(['Ama']);
    expect(await names(kofi.id)).toEqual(['Ama']);

    await signInShift(unit.core, '5791');
    expect(await names()).toEqual(['Efua', 'Ama', 'Kofi']);
    expect(await names(ama.id)).toEqual(['Ama']);
    const [kofiRow] = (await unit.core.invoke('shifts:list', { staffId: kofi.id })).shifts;
    expect(kofiRow).toMatchObject({ id: kofiShift, staffId: kofi.id, closedAt: null, count: 2, net: '0.99', pending: 1 });
  },
);

it(
  "a shift's report is of LIVE once it took a LIVE payment; its TEST payments are counted apart, printed and shown",
  { timeout: 30_000 },
  async () => {
    const kofi = await ownerAndKofi();
    const shift = await signInShift(unit.core, '1357');
    const k = { shiftId: shift, staffId: kofi.id, name: 'Kofi' };
    writeShiftPayments(unit.dir, [{ id: 'T1', ...k, state: 'success' }]);
    expect(await unit.core.invoke('shifts:current', {})).toMatchObject({ environment: 'test', otherEnvironment: 0, totals: { count: 1 } });
    writeShiftPayments(unit.dir, [
      { id: 'L1', ...k, state: 'success', environment: 'live' },
      { id: 'L2', ...k, state: 'failed', environment: 'live' },
      { id: 'T2', ...k, state: 'awaiting_customer' },
    ]);
    const report = await unit.core.invoke('shifts:current', {});
    expect(report).toMatchObject({
      environment: 'live',
      otherEnvironment: 2,
      totals: { count: 2, succeeded: 1, failed: 1, gross: '1.00' },
    });
    expect(report?.pending).toEqual([]); // T2 waits in TEST: not this LIVE report's
    const [document] = (await unit.core.invoke('shifts:print', { id: shift })).documents;
    const texts = document!.blocks.map((b) => ('text' in b ? b.text : ''));
    expect(texts).toContain('2 payments in TEST (sandbox) during this shift: not in these figures.');
    expect(texts.join('\n')).not.toMatch(/SANDBOX/);
  },
);

it(
  "a shift's payments that ended without the service's answer are counted apart (count and pesewas), in no total, on screen and paper",
  { timeout: 30_000 },
  async () => {
    const kofi = await ownerAndKofi();
    const shift = await signInShift(unit.core, '1357');
    const k = { shiftId: shift, staffId: kofi.id, name: 'Kofi' };
    writeShiftPayments(unit.dir, [
      { id: 'S1', ...k, state: 'success' },
      { id: 'N1', ...k, state: 'not_sent', amount: 1_250 },
      { id: 'N2', ...k, state: 'not_sent', amount: 7 },
      { id: 'U1', ...k, state: 'unconfirmed', amount: 305 },
      { id: 'L1', ...k, state: 'unconfirmed', amount: 999 }, // TEST: counted apart below, not LIVE's
      { id: 'L2', ...k, state: 'success', environment: 'live' },
      { id: 'L3', ...k, state: 'not_sent', environment: 'live', amount: 1_250 },
      { id: 'L4', ...k, state: 'not_sent', environment: 'live', amount: 1_251 },
      { id: 'L5', ...k, state: 'unconfirmed', environment: 'live', amount: 19 },
    ]);
    const report = await unit.core.invoke('shifts:current', {});
    expect(report).toMatchObject({
      environment: 'live',
      totals: { count: 1, succeeded: 1, failed: 0, gross: '1.00' },
      unsent: { notSent: { count: 2, amount: '25.01' }, unconfirmed: { count: 1, amount: '0.19' } },
      pending: [],
    });
    expect(report?.byNetwork.map((n) => n.count)).toEqual([1]);
    const [summary] = (await unit.core.invoke('shifts:list', {})).shifts;
    expect(summary).toMatchObject({ count: 1, net: '0.99', pending: 0 });

    const [document] = (await unit.core.invoke('shifts:print', { id: shift })).documents;
    const joined = document!.blocks.map((b) => ('text' in b ? b.text : 'label' in b ? `${b.label} ${b.value}` : '')).join('\n');
    expect(joined).toMatch(/Not sent: 2 GH₵25\.01\nNot sent: no prompt went out/);
    expect(joined).toMatch(/May have reached: 1 GH₵0\.19\nMay have reached the service: counted when its result comes/);

    // Closing stores them with the report, which is read back from what was stored.
    expect((await unit.core.invoke('shifts:close', { id: shift })).unsent).toEqual(report?.unsent);
  },
);
