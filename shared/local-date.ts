/** Calendar dates in the till's time zone (YYYY-MM-DD), computed once per row at insert. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

export function localDate(ms: number, timeZone: string): string {
  return formatter(timeZone).format(new Date(ms));
}

/** Every date from `from` to `to` inclusive (both YYYY-MM-DD). */
export function datesBetween(from: string, to: string): string[] {
  const out: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end && out.length <= 3700; t += 86_400_000) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

/** The wall-clock fields of an instant in a time zone, each zero-padded (hours 00-23). */
export type LocalParts = { year: string; month: string; day: string; hour: string; minute: string; second: string };

const partFormatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per time zone, made once: making one costs far more than formatting (a CSV of 100,000 rows). */
function partFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = partFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partFormatters.set(timeZone, f);
  }
  return f;
}

export function localParts(ms: number, timeZone: string): LocalParts {
  const parts = partFormatter(timeZone).formatToParts(new Date(ms));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00';
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** [start, end) in Unix ms of a calendar date in a time zone. */
export function dayBoundsMs(date: string, timeZone: string): [number, number] {
  const startOf = (d: string) => {
    const utcMidnight = Date.parse(`${d}T00:00:00Z`);
    let guess = utcMidnight;
    for (let i = 0; i < 3; i += 1) guess = utcMidnight - offsetMs(guess, timeZone);
    return guess;
  };
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return [startOf(date), startOf(next)];
}

function offsetMs(at: number, timeZone: string): number {
  const p = localParts(at, timeZone);
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return asUtc - Math.floor(at / 1000) * 1000;
}
