/**
 * A shift report on a network ESC/POS printer: a cashier's shift with a paid, a failed and a waiting sale
 * through the real sandbox, printed on a fake printer on loopback and decoded: the figures by network, the
 * payment still awaiting a result apart, laid out to 80 mm, then to 58 mm. A cashier cannot print a
 * colleague's shift; a manager or the owner can print anyone's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEscPos, plainLines } from '../../support/escpos-decoder.js';
import { startFakePrinter, type FakePrinter } from '../../support/fake-network-printer.js';
import { msisdnEnding, PIN, startSale, waitForState } from './helpers.js';
import { useTill } from '../../support/till-fixture.js';

const fixture = useTill('shift-printing', { connected: true, core: { tillName: 'Front counter' } });
const KOFI = '1357';
const AMA = '8642';
let printer: FakePrinter;
let kofiShift: string;

async function setPaper(paper: 58 | 80): Promise<void> {
  const current = (await fixture.core.invoke('settings:get', {})).receipt;
  await fixture.core.invoke('receipt:saveSettings', { ...current, paper, printer: 'network', host: '127.0.0.1', port: printer.port });
}

async function printShift(id: string) {
  const job = printer.nextJob();
  expect(await fixture.core.invoke('shifts:print', { id })).toMatchObject({ ok: true, deliver: 'sent' });
  const [document] = decodeEscPos(await job).documents;
  return plainLines(document!);
}

/** A label and its value on one line, as wide as the paper. */
const line = (label: string, value: string, columns: number) => `${label}${' '.repeat(columns - label.length - value.length)}${value}`;

beforeAll(async () => {
  printer = await startFakePrinter();
  await setPaper(80);
  await fixture.core.invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: KOFI });
  await fixture.core.invoke('staff:add', { name: 'Ama', role: 'cashier', pin: AMA });
  await fixture.core.invoke('session:signIn', { pin: KOFI });
  kofiShift = (await fixture.core.invoke('shifts:current', {}))!.id;
  for (const [suffix, amount, final] of [
    ['10', '12.50', ['success']],
    ['01', '3.00', ['failed']],
    ['07', '4.00', ['awaiting_customer']], // authorised, but the sandbox holds its webhook: still waiting
  ] as const) {
    const payment = await startSale(fixture.core, msisdnEnding(suffix, 40), amount);
    await waitForState(fixture.core, payment.id, [...final]);
  }
}, 60_000);

afterAll(async () => {
  await printer?.close();
});

describe('a shift report on a network printer', () => {
  it('80 mm: who and when, the figures of all networks and of each, the waiting sale apart, a line to sign', async () => {
    const paid = (await fixture.core.invoke('history:search', {})).items.find((p) => p.state === 'success')!;
    const lines = await printShift(kofiShift);
    expect(lines[0]).toBe('SANDBOX - NO MONEY MOVED - NOT A RECEIPT'); // a TEST shift, marked as receipts are
    expect(lines).toEqual(expect.arrayContaining(['SHIFT REPORT', line('Cashier', 'Kofi', 48), line('Till', 'Front counter', 48)]));
    expect(lines.some((l) => /^OPEN: figures as of \d{2} \w{3} \d{4}, \d{2}:\d{2}:\d{2}$/.test(l.trim()))).toBe(true);
    expect(lines).toContain(line('Closed', 'still open', 48));
    const all = lines.indexOf('All networks');
    expect(lines.slice(all + 1, all + 7)).toEqual([
      line('Payments', '2', 48),
      line('Paid', '1', 48),
      line('Not paid', '1', 48),
      line('Gross', 'GHS 12.50', 48),
      line('Fees', `GHS ${paid.fee}`, 48),
      line('Net', `GHS ${paid.net}`, 48),
    ]);
    const mtn = lines.indexOf('MTN MoMo');
    expect(mtn).toBeGreaterThan(all);
    expect(lines[mtn + 1]).toBe(line('Payments', '2', 48));
    expect(lines).toContain('Awaiting a result: 1');
    expect(lines).toContain(line('024 *** 4007 MTN MoMo', 'GHS 4.00', 48));
    expect(lines.at(-2)).toBe('Signed: ______________________');
    expect(lines.every((l) => l.length <= 48)).toBe(true);
  });

  it("a cashier cannot print a colleague's shift; the owner closes it and prints it on 58 mm paper, with the same figures", async () => {
    await fixture.core.invoke('session:signIn', { pin: AMA });
    await expect(fixture.core.invoke('shifts:print', { id: kofiShift })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await fixture.core.invoke('session:signIn', { pin: PIN });
    await fixture.core.invoke('shifts:close', { id: kofiShift });
    await setPaper(58);
    const lines = await printShift(kofiShift);
    expect(lines).toEqual(
      expect.arrayContaining(['CLOSED', line('Closed by', 'Owner', 32), line('Payments', '2', 32), line('Gross', 'GHS 12.50', 32)]),
    );
    expect(lines.every((l) => l.length <= 32)).toBe(true);
  });
});
