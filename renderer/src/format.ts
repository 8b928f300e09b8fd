/** Display helpers: money without floats, times in the till's time zone. */
import { formatGhs, parseAmount } from '../../shared/money';
import { displayMsisdn } from '../../shared/phone';

export { dateTime, networkLabel } from '../../shared/display';

/** "12.50" -> "GH₵12.50" (exact: parsed to pesewas, never a float). */
export function ghs(wire: string | null | undefined): string {
  if (wire === null || wire === undefined) return '—';
  try {
    return formatGhs(parseAmount(wire, { allowZero: true }));
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
