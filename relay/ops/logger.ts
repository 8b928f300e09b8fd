/** The relay's logger: JSON lines on stderr, one object per line. */
export type LogFn = (line: Record<string, unknown>) => void;

/** JSON lines on stderr, with a timestamp. */
export function defaultLog(line: Record<string, unknown>): void {
  process.stderr.write(`${JSON.stringify({ ts: new Date().toISOString(), ...line })}\n`);
}
