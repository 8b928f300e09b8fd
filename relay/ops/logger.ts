/** The relay's logger: JSON lines on stderr, one object per line. */
export type LogFn = (line: Record<string, unknown>) => void;

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/**
 * The lowest level printed, from RELAY_LOG_LEVEL (debug, info, warn or error; info when unset or
 * anything else). Read at each line, so a test or an embedding process may change it.
 */
function lowest(): number {
  const wanted = LEVELS.indexOf((process.env.RELAY_LOG_LEVEL ?? '').trim().toLowerCase() as (typeof LEVELS)[number]);
  return wanted >= 0 ? wanted : 1;
}

/** JSON lines on stderr, with a timestamp; lines below RELAY_LOG_LEVEL are left out (a line without a level is printed). */
export function defaultLog(line: Record<string, unknown>): void {
  const level = LEVELS.indexOf(line.level as (typeof LEVELS)[number]);
  if (level >= 0 && level < lowest()) return;
  process.stderr.write(`${JSON.stringify({ ts: new Date().toISOString(), ...line })}\n`);
}
