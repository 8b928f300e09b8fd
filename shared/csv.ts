/** CSV cells for every export the till writes (takings, the day's Z, the audit log). */
import { localParts } from './local-date.js';
import { withoutControls } from './outside-text.js';

/**
 * What a spreadsheet may take as the start of a formula or a command: = + - @, tab and CR (OWASP), and what
 * some spreadsheets skip or read the same way before one: a leading space, NBSP, zero-width space, the
 * full-width ＝ ＋ － ＠, and ; and | (DDE and separators in some locales).
 */
const FORMULA_START = /^[=+\-@\t\r \u00a0\u200b\ufeff\uff1d\uff0b\uff0d\uff20;|]/;

/**
 * One cell: text without control or bidi characters (shared/outside-text.ts), a leading ' on text a
 * spreadsheet could run as a formula, RFC 4180 quoting. Numbers are written as they are.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  let text = withoutControls(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A whole CSV file: a UTF-8 byte-order mark first (Excel then reads "Milo 400g — 1 tin" as written, not as
 * Windows-1252), one line per row, CRLF line ends (RFC 4180). Every export goes through it.
 */
export function csvFile(lines: readonly string[]): string {
  return `\ufeff${lines.join('\r\n')}\r\n`;
}

/**
 * An instant as local date and time in the till's time zone, "2026-11-24 14:03:00": the form LibreOffice
 * Calc and Excel read as a date and time (ISO text with a T and a Z is kept as text).
 */
export function csvLocalDateTime(ms: number, timeZone: string): string {
  const [date, time] = csvLocalDateAndTime(ms, timeZone);
  return `${date} ${time}`;
}

/**
 * An instant as two cells in the till's time zone, the local date "2026-11-24" and time "14:03:00": each read
 * as a date and a time by LibreOffice Calc and Excel.
 */
export function csvLocalDateAndTime(ms: number, timeZone: string): [string, string] {
  const local = new Date(ms + offsetAt(ms, timeZone)).toISOString();
  return [local.slice(0, 10), local.slice(11, 19)];
}

/**
 * The time zone's offset at an instant (ms), from Intl once per quarter hour of time (time zones change
 * offset on quarter hours): a CSV of 100,000 rows formats a handful of instants with Intl, not every row.
 * When the quarter hour's two ends differ (a change inside it), the instant itself is asked.
 */
const QUARTER_HOUR = 900_000;
const offsets = new Map<string, number>();

function offsetAt(ms: number, timeZone: string): number {
  const start = Math.floor(ms / QUARTER_HOUR) * QUARTER_HOUR;
  const key = `${timeZone} ${start}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = exactOffset(start, timeZone);
    if (offset !== exactOffset(start + QUARTER_HOUR - 1000, timeZone)) return exactOffset(ms, timeZone);
    if (offsets.size >= 10_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

function exactOffset(ms: number, timeZone: string): number {
  const p = localParts(ms, timeZone);
  const local = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return local - Math.floor(ms / 1000) * 1000;
}
