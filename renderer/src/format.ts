/** Display helpers: money without floats, times in the till's time zone. */
import { formatGhs, parseSignedAmount } from '../../shared/money';
import { displayMsisdn } from '../../shared/phone';

export { dateTime, networkLabel } from '../../shared/display';

/** "12.50" -> "GH₵12.50" (exact: parsed to pesewas, never a float). */
export function ghs(wire: string | null | undefined): string {
  if (wire === null || wire === undefined) return '—';
  try {
    return formatGhs(parseSignedAmount(wire));
  } catch {
    return wire;
  }
}

export function phone(msisdn: string): string {
  return displayMsisdn(msisdn);
}

export function time(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(d);
}

/** Calendar date (YYYY-MM-DD) of an instant in a time zone. */
export function isoDate(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(instant)
    .reduce<Record<string, string>>((acc, p) => ({ ...acc, [p.type]: p.value }), {});
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** YYYY-MM-DD shifted by whole days (calendar arithmetic in UTC, no time-zone drift). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function elapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

export function percent(part: number, whole: number): string {
  if (whole === 0) return '—';
  const tenths = Math.round((part * 1000) / whole);
  return `${Math.floor(tenths / 10)}.${tenths % 10}%`;
}

/** A calendar date (YYYY-MM-DD) as the till's locale (en-GH) writes it, day first: "22/11/2026". */
export function dayText(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : date;
}

const DAY_FIRST = /^(\d{1,2})[/.\- ](\d{1,2})[/.\- ](\d{4})$/;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A chart axis' day, day first as the till's locale reads dates: "2026-11-26" -> "26 Nov". */
export function axisDay(date: string): string {
  const m = /^\d{4}-(\d{2})-(\d{2})$/.exec(date);
  return m ? `${Number(m[2])} ${(MONTHS[Number(m[1]) - 1] ?? '').slice(0, 3)}` : date;
}

/**
 * A date typed as the till's locale writes it, day first ("22/11/2026"; "2/3/2026", "22-11-2026" and
 * "22.11.2026" too) to YYYY-MM-DD, or what is wrong with it in words a cashier can act on.
 */
export function parseDayText(typed: string): { ok: true; date: string } | { ok: false; message: string } {
  const text = typed.trim();
  if (text === '') return { ok: false, message: 'Type a date, day first: 22/11/2026.' };
  const m = DAY_FIRST.exec(text);
  if (!m) return { ok: false, message: `“${text}” is not a date: write it day first, as 22/11/2026.` };
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 2000 || year > 2099) return { ok: false, message: `${year} is out of range: write this century’s year in full, as 2026.` };
  if (month < 1 || month > 12) return { ok: false, message: `There is no month ${month}: write the day first, as 22/11/2026.` };
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) {
    return { ok: false, message: `${MONTHS[month - 1]} ${year} has no day ${day} (it has ${daysInMonth} days).` };
  }
  return { ok: true, date: `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}` };
}

/** An instant as the till's lists write it, day first in the till's time zone: "22/11/2026 15:40". */
export function dayTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${dayText(isoDate(d, timeZone))} ${time(iso, timeZone)}`;
}
