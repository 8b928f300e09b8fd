/**
 * Receipts on a network ESC/POS printer: a fake printer on loopback keeps the bytes, the test decodes
 * them (text lines, QR content, cut) and checks a PAID receipt (customer and merchant copies), a NOT
 * PAID slip, a REPRINT and the TEST marking; then a printer that is off, silent or out of paper.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RECEIPT_SETTINGS, type ReceiptSettings } from '../../../shared/receipt/receipt-settings.js';
import { decodeEscPos, plainLines } from '../../support/escpos-decoder.js';
import { startFakePrinter, type FakePrinter } from '../../support/fake-network-printer.js';
import { msisdnEnding, requestId, waitForState } from './helpers.js';
import { useTill } from '../../support/till-fixture.js';

const SANDBOX = 'SANDBOX - NO MONEY MOVED - NOT A RECEIPT';

const fixture = useTill('receipts', { connected: true, core: { tillName: 'Front counter' } });
let printer: FakePrinter;

async function setReceipt(patch: Partial<ReceiptSettings>): Promise<void> {
  const current = (await fixture.core.invoke('settings:get', {})).receipt;
  await fixture.core.invoke('receipt:saveSettings', { ...current, ...patch });
}

async function pay(suffix: string, amount = '12.50', description?: string) {
  const charged = await fixture.core.invoke('payments:charge', {
    requestId: requestId(),
    amount,
    msisdn: msisdnEnding(suffix, Number(suffix)),
    network: 'MTN',
    ...(description ? { description } : {}),
  });
  if (!charged.ok) throw new Error(charged.message);
  return waitForState(fixture.core, charged.payment.id, ['success', 'failed']);
}

async function printAndDecode(paymentId: string, reprint = false) {
  const job = printer.nextJob();
  const result = await fixture.core.invoke('receipt:print', { paymentId, reprint });
  expect(result).toMatchObject({ ok: true, deliver: 'sent' });
  return decodeEscPos(await job);
}

beforeAll(async () => {
  printer = await startFakePrinter();
  await setReceipt({
    ...DEFAULT_RECEIPT_SETTINGS,
    shopName: 'Ama’s Provisions',
    address: '12 Oxford Street\nOsu, Accra',
    phone: '030 123 4567',
    taxIdKind: 'tin',
    taxId: 'c0012345678',
    footer: 'Medaase — thank you',
    printer: 'network',
    host: '127.0.0.1',
    port: printer.port,
  });
});

afterAll(async () => {
  await printer?.close();
});

describe('a network ESC/POS printer', () => {
  it('prints a PAID receipt: shop header, PAID large, GHS amount, masked number, network, reference as text and QR, time, till, cut', async () => {
    const payment = await pay('10', '12.50', 'Bread');
    const job = await printAndDecode(payment.id);
    expect(job.statusQueries).toEqual([2, 4]);
    expect(job.documents).toHaveLength(1);
    const [receipt] = job.documents;
    const lines = plainLines(receipt!);
    expect(lines[0]).toBe(SANDBOX);
    expect(lines.join('\n')).toContain("Ama's Provisions");
    expect(lines).toEqual(
      expect.arrayContaining(['12 Oxford Street', 'Osu, Accra', 'Tel 030 123 4567', 'GRA TIN C0012345678', 'CUSTOMER COPY']),
    );
    const paid = receipt!.lines.find((l) => l.text.trim() === 'PAID');
    expect(paid).toMatchObject({ bold: true, large: true });
    // The title RECEIPT and the receipt number, large, above PAID.
    const title = receipt!.lines.findIndex((l) => l.text.trim() === 'RECEIPT');
    expect(receipt!.lines[title]).toMatchObject({ large: true });
    expect(receipt!.lines[title + 1]).toMatchObject({ large: true, text: expect.stringMatching(/^\s*R-\d{6}\s*$/) });
    expect(lines).toContain(`Amount${' '.repeat(48 - 'Amount'.length - 'GHS 12.50'.length)}GHS 12.50`);
    expect(lines.some((l) => /^Customer\s+024 \*\*\* \d{4}$/.test(l))).toBe(true);
    expect(lines.join('\n')).not.toContain(payment.msisdn.slice(3));
    expect(lines.some((l) => /^Network\s+MTN MoMo$/.test(l))).toBe(true);
    expect(lines.some((l) => /^For\s+Bread$/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith('Reference') && l.endsWith(payment.reference!))).toBe(true);
    expect(lines.some((l) => /^Till\s+Front counter$/.test(l))).toBe(true);
    expect(lines.some((l) => /^Date\s+\d{2} \w{3} \d{4}, \d{2}:\d{2}:\d{2}$/.test(l))).toBe(true);
    expect(lines).toContain('Medaase - thank you');
    expect(lines.join('\n')).not.toMatch(/Fee|You receive/);
    expect(receipt!.qr).toEqual([payment.reference]);
    expect(receipt!.cut).toBe('partial');
  });

  it('marks TEST at the top and the bottom, bold and boxed', async () => {
    const payment = await pay('11');
    const [receipt] = (await printAndDecode(payment.id)).documents;
    const boxed = receipt!.lines.map((l) => l.text);
    expect(boxed[0]).toMatch(/^╔═+╗$/);
    expect(receipt!.lines[1]).toMatchObject({ bold: true });
    const text = plainLines(receipt!).join(' ');
    expect(text.startsWith('SANDBOX - NO MONEY MOVED - NOT A RECEIPT')).toBe(true);
    expect(text.endsWith('SANDBOX - NO MONEY MOVED - NOT A RECEIPT')).toBe(true);
  });

  it('prints the merchant copy with fee and net after the customer copy, each cut, when the owner wants it', async () => {
    await setReceipt({ merchantCopy: true });
    try {
      const payment = await pay('12', '100.00');
      const job = await printAndDecode(payment.id);
      expect(job.documents.map((d) => d.cut)).toEqual(['partial', 'partial']);
      const [customer, merchant] = job.documents.map(plainLines);
      expect(customer).toContain('CUSTOMER COPY');
      expect(customer!.join('\n')).not.toMatch(/Fee/);
      expect(merchant).toContain('MERCHANT COPY');
      expect(merchant!.some((l) => l.startsWith('Fee') && l.endsWith(`GHS ${payment.fee}`))).toBe(true);
      expect(merchant!.some((l) => l.startsWith('You receive') && l.endsWith(`GHS ${payment.net}`))).toBe(true);
    } finally {
      await setReceipt({ merchantCopy: false });
    }
  });

  it('prints a NOT PAID slip that says it is not a receipt, without a QR code or a thank-you', async () => {
    const payment = await pay('01', '3.00');
    expect(payment.state).toBe('failed');
    const [slip] = (await printAndDecode(payment.id)).documents;
    const lines = plainLines(slip!);
    expect(slip!.lines.find((l) => l.text.trim() === 'NOT PAID')).toMatchObject({ large: true });
    expect(lines.filter((l) => l.includes('NOT A RECEIPT - NO MONEY WAS')).length).toBeGreaterThanOrEqual(2);
    expect(lines).toContain('Do not hand over goods for this attempt.');
    expect(lines.join('\n')).not.toMatch(/^PAID$|CUSTOMER COPY|thank you/m);
    expect(slip!.qr).toEqual([]);
  });

  it('says REPRINT and when, on a reprint', async () => {
    const payment = await pay('13');
    await printAndDecode(payment.id);
    const [again] = (await printAndDecode(payment.id, true)).documents;
    expect(plainLines(again!).some((l) => /^REPRINT \d{2} \w{3} \d{4}, \d{2}:\d{2}:\d{2}$/.test(l))).toBe(true);
  });

  it('names the cashier who took the payment (staff accounts)', async () => {
    const payment = await pay('17');
    const db = new Database(`${fixture.root}/till/till.db`);
    try {
      db.prepare('UPDATE payments SET staff_name = ? WHERE id = ?').run('Ama Owusu', payment.id);
    } finally {
      db.close();
    }
    const [receipt] = (await printAndDecode(payment.id)).documents;
    expect(plainLines(receipt!).some((l) => /^Cashier\s+Ama Owusu$/.test(l))).toBe(true);
  });

  it('prints once for a double click: the second request joins the first job', async () => {
    const payment = await pay('14');
    const before = printer.jobs.length;
    const [a, b] = await Promise.all([
      fixture.core.invoke('receipt:print', { paymentId: payment.id, reprint: false }),
      fixture.core.invoke('receipt:print', { paymentId: payment.id, reprint: false }),
    ]);
    expect(a).toMatchObject({ ok: true });
    expect(b).toMatchObject({ ok: true });
    await new Promise((r) => setTimeout(r, 200));
    expect(printer.jobs.length - before).toBe(1);
  });

  it('prints a test page from Settings', async () => {
    const job = printer.nextJob();
    expect(await fixture.core.invoke('receipt:testPrint', {})).toMatchObject({ ok: true, deliver: 'sent' });
    const [page] = decodeEscPos(await job).documents;
    expect(plainLines(page!)).toEqual(expect.arrayContaining(['TEST PRINT', `Paper${' '.repeat(48 - 10)}80 mm`]));
    expect(page!.qr).toEqual(['momo-till test print']);
  });

  it('a printer that is off, silent or out of paper: a clear message within 5 s, and the next sale goes on', async () => {
    const payment = await pay('15');
    const silent = await startFakePrinter('silent');
    const empty = await startFakePrinter('out-of-paper');
    try {
      const cases: Array<[number, RegExp]> = [
        [silent.port, /connected but did not answer within 5 s/],
        [empty.port, /out of paper: put in a new roll/],
        [1, /refused the connection: check it is switched on/],
      ];
      for (const [port, message] of cases) {
        await setReceipt({ port });
        const started = Date.now();
        const result = await fixture.core.invoke('receipt:print', { paymentId: payment.id, reprint: false });
        expect(Date.now() - started).toBeLessThan(7_000); // the 5 s time-out plus slack for a loaded machine
        expect(result).toMatchObject({ ok: false, message: expect.stringMatching(message) });
        expect(result.documents).toHaveLength(1);
      }
      expect(empty.jobs[0]?.length).toBe(6); // the status query only: no receipt sent into an empty printer
      const next = await pay('16');
      expect(next.state).toBe('success');
    } finally {
      await setReceipt({ port: printer.port });
      await silent.close();
      await empty.close();
    }
  });
});
