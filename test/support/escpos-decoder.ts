/**
 * A small ESC/POS decoder for the tests, for exactly the commands the till sends (no maintained
 * decoder exists on npm: escpos-parser and npos are abandoned). Strict: an unknown command throws,
 * so a change in what the encoder emits shows up here instead of passing unnoticed.
 */
const ESC = 0x1b;
const FS = 0x1c;
const GS = 0x1d;
const DLE = 0x10;

/** The code page 437 characters the encoder uses to draw boxes and rules. */
const CP437: Record<number, string> = { 0xc9: '╔', 0xcd: '═', 0xbb: '╗', 0xba: '║', 0xc8: '╚', 0xbc: '╝', 0xc4: '─' };

export type DecodedLine = { text: string; bold: boolean; large: boolean };
export type DecodedDocument = { lines: DecodedLine[]; qr: string[]; cut: 'full' | 'partial' | null };
export type DecodedJob = { documents: DecodedDocument[]; statusQueries: number[] };

/** ESC x: how many parameter bytes follow x. */
const ESC_PARAMS: Record<string, number> = { '@': 0, M: 1, E: 1, '3': 1, '2': 0, t: 1, a: 1, '!': 1, '-': 1, d: 1, J: 1 };

export function decodeEscPos(bytes: Uint8Array): DecodedJob {
  const job: DecodedJob = { documents: [], statusQueries: [] };
  let doc: DecodedDocument = { lines: [], qr: [], cut: null };
  let line: DecodedLine = { text: '', bold: false, large: false };
  let bold = false;
  let large = false;
  let qrData = '';
  const endLine = () => {
    doc.lines.push({ ...line, text: line.text.replace(/\s+$/, '') });
    line = { text: '', bold: false, large: false };
  };
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const at = (k: number) => bytes[i + k] as number;
    if (b === ESC) {
      const command = String.fromCharCode(at(1));
      const params = ESC_PARAMS[command];
      if (params === undefined) throw new Error(`unknown ESC ${command} at ${i}`);
      if (command === 'E') bold = at(2) !== 0;
      if (command === '@') bold = large = false;
      i += 2 + params;
    } else if (b === FS) {
      if (at(1) !== 0x2e) throw new Error(`unknown FS ${at(1)} at ${i}`);
      i += 2;
    } else if (b === DLE) {
      if (at(1) !== 0x04) throw new Error(`unknown DLE ${at(1)} at ${i}`);
      job.statusQueries.push(at(2));
      i += 3;
    } else if (b === GS) {
      const command = String.fromCharCode(at(1));
      if (command === '!') {
        large = at(2) !== 0;
        i += 3;
      } else if (command === 'V') {
        if (line.text) endLine();
        doc.cut = at(2) === 0 || at(2) === 0x30 ? 'full' : 'partial';
        job.documents.push(doc);
        doc = { lines: [], qr: [], cut: null };
        i += at(2) >= 0x41 ? 4 : 3;
      } else if (command === '(' && at(2) === 0x6b) {
        const length = at(3) + at(4) * 256;
        const data = bytes.subarray(i + 5, i + 5 + length);
        const [cn, fn] = [data[0], data[1]];
        if (cn === 0x31 && fn === 0x50) qrData = Buffer.from(data.subarray(3)).toString('latin1');
        if (cn === 0x31 && fn === 0x51) doc.qr.push(qrData);
        i += 5 + length;
      } else throw new Error(`unknown GS ${command} at ${i}`);
    } else if (b === 0x0a) {
      endLine();
      i += 1;
    } else if (b === 0x0d) {
      i += 1;
    } else {
      const char = b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : (CP437[b] ?? `<${b.toString(16)}>`);
      line.text += char;
      if (char.trim()) {
        line.bold ||= bold;
        line.large ||= large;
      }
      i += 1;
    }
  }
  if (line.text) endLine();
  if (doc.lines.some((l) => l.text) || doc.qr.length) job.documents.push(doc);
  return job;
}

/** A document's text as one string per line, without the box drawing (for readable assertions). */
export function plainLines(doc: DecodedDocument): string[] {
  return doc.lines.map((l) => l.text.replace(/[╔═╗║╚╝─]/g, '').trim()).filter(Boolean);
}
