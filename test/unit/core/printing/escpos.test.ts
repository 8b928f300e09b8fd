/** ESC/POS from the encoder: plain ASCII text (GHS for the cedi), native QR, a cut per document, rows that fit the paper. */
import { describe, expect, it } from 'vitest';
import { encodeEscPos, toPrinterText } from '../../../../electron/core/printing/escpos.js';
import { statusProblem } from '../../../../electron/core/printing/network-printer.js';
import { decodeEscPos, plainLines } from '../../../support/escpos-decoder.js';

describe('ESC/POS receipts', () => {
  it('folds text to what every code page prints: GHS, *, -, Twi letters, accents', () => {
    expect(toPrinterText('GH₵1,234.50')).toBe('GHS 1,234.50');
    expect(toPrinterText('024 ••• 4567 — Ɔdɔ Ɛsi Café “ok”')).toBe('024 *** 4567 - Odo Esi Cafe "ok"');
    expect(toPrinterText('漢字\nline')).toBe('?? line');
    // A Z's correction, as the screen says it: the arrow and the minus sign have ASCII forms on paper.
    expect(toPrinterText('1 payment PAID → FAILED, −GH₵12.50')).toBe('1 payment PAID -> FAILED, -GHS 12.50');
  });

  it('58 mm gets 32 columns, 80 mm 48; a row too long for one line puts its value on the next', () => {
    const doc = {
      title: 't',
      blocks: [
        { kind: 'row' as const, label: 'Amount', value: 'GH₵12.50', bold: true },
        { kind: 'row' as const, label: 'Reference', value: 'TX_01M81XZBN4WZJR1AZCMEWY6BFR', bold: false },
      ],
    };
    const [narrow] = decodeEscPos(encodeEscPos([doc], 58)).documents;
    expect(plainLines(narrow!)).toEqual([`Amount${' '.repeat(32 - 15)}GHS 12.50`, 'Reference', 'TX_01M81XZBN4WZJR1AZCMEWY6BFR']);
    expect(narrow!.lines[2]!.text).toBe('TX_01M81XZBN4WZJR1AZCMEWY6BFR'.padStart(32));
    expect(narrow!.lines[0]).toMatchObject({ bold: true });
    const [wide] = decodeEscPos(encodeEscPos([doc], 80)).documents;
    expect(wide!.lines[1]!.text).toHaveLength(48);
  });

  it('a QR code is the printer’s own (GS ( k) and each document ends with a cut', () => {
    const job = decodeEscPos(
      encodeEscPos(
        [
          { title: 'a', blocks: [{ kind: 'qr', value: 'TX_1' }] },
          { title: 'b', blocks: [{ kind: 'heading', text: 'PAID', large: true }] },
        ],
        80,
      ),
    );
    expect(job.documents.map((d) => [d.qr, d.cut])).toEqual([
      [['TX_1'], 'partial'],
      [[], 'partial'],
    ]);
    expect(job.documents[1]!.lines.find((l) => l.text.trim() === 'PAID')).toMatchObject({ bold: true, large: true });
  });

  it('reads the printer status bytes: paper out, cover open, error, fine', () => {
    expect(statusProblem(0x12, 0x12)).toBeNull();
    expect(statusProblem(0x12, 0x72)).toMatch(/out of paper/);
    expect(statusProblem(0x32, 0x12)).toMatch(/out of paper/);
    expect(statusProblem(0x16, 0x12)).toMatch(/cover open/);
    expect(statusProblem(0x52, 0x12)).toMatch(/reports an error/);
  });
});
