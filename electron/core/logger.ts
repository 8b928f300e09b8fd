/**
 * Structured logging that cannot leak secrets: every line passes through `redact`, which masks
 * values under secret-looking keys, anything shaped like a secret key or relay token, and every
 * secret value the core has registered (whatever its shape), at any depth. Lines go to
 * <dataDir>/logs/till.log (rotated by size) and to the optional sink given to the core.
 */
import { appendFileSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SECRET_KEY_NAMES = /secret|token|password|authorization|pin|cookie/i;
const SECRET_SHAPES: Array<[RegExp, string]> = [
  [/sk_(test|live)_[A-Za-z0-9]+/g, 'sk_$1_••••'],
  [/rt_[A-Za-z0-9_-]{20,}/g, 'rt_••••'],
  [/Bearer\s+[^\s"']+/gi, 'Bearer ••••'],
];

/** Objects nested deeper than this in a log line are replaced, never written unmasked. */
const MAX_DEPTH = 32;

export type LogLine = Record<string, unknown>;
export type Logger = {
  info(event: string, fields?: LogLine): void;
  warn(event: string, fields?: LogLine): void;
  error(event: string, fields?: LogLine): void;
  /** Remember a secret value so it is masked wherever it appears, whatever its shape. */
  registerSecret(value: string | null | undefined): void;
};

export function createRedactor(): { redact(value: unknown): unknown; register(value: string): void } {
  const known = new Set<string>();
  const redactString = (text: string): string => {
    let out = text;
    for (const secret of known) if (secret.length >= 6 && out.includes(secret)) out = out.split(secret).join('••••');
    for (const [pattern, replacement] of SECRET_SHAPES) out = out.replace(pattern, replacement);
    return out;
  };
  const redact = (value: unknown, depth = 0): unknown => {
    if (typeof value === 'string') return redactString(value);
    if (value === null || typeof value !== 'object') return value;
    // Deeper than any line the till writes: replaced rather than passed through unmasked (and a
    // cycle ends here too).
    if (depth >= MAX_DEPTH) return '[nested too deep]';
    if (value instanceof Error) return { name: value.name, message: redactString(value.message) };
    if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = SECRET_KEY_NAMES.test(key) && inner !== null && typeof inner !== 'boolean' ? '[redacted]' : redact(inner, depth + 1);
    }
    return out;
  };
  return { redact: (value) => redact(value), register: (value) => void known.add(value) };
}

export type LoggerOptions = {
  dataDir: string;
  sink?: (line: LogLine) => void;
  now: () => number;
  /** till.log is rotated when a line would take it past this size (default 5 MiB). */
  maxFileBytes?: number;
  /** Rotated files kept: till.log.1 (newest) … till.log.<keepFiles> (default 3). */
  keepFiles?: number;
};

/** Appends lines to a file, rotating it by size: file -> file.1 -> … -> file.<keep>, the oldest dropped. */
function rotatingFile(file: string, maxBytes: number, keep: number): (text: string) => void {
  let size = existsSync(file) ? statSync(file).size : 0;
  return (text) => {
    const bytes = Buffer.byteLength(text);
    if (size > 0 && size + bytes > maxBytes) {
      for (let i = keep - 1; i >= 1; i--) if (existsSync(`${file}.${i}`)) renameSync(`${file}.${i}`, `${file}.${i + 1}`);
      renameSync(file, `${file}.1`);
      size = 0;
    }
    appendFileSync(file, text, { mode: 0o600 });
    size += bytes;
  };
}

export function createLogger(options: LoggerOptions): Logger {
  const dir = join(options.dataDir, 'logs');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const append = rotatingFile(join(dir, 'till.log'), options.maxFileBytes ?? 5 * 1024 * 1024, options.keepFiles ?? 3);
  const redactor = createRedactor();
  const write = (level: string, event: string, fields: LogLine = {}) => {
    const line = redactor.redact({ time: new Date(options.now()).toISOString(), level, event, ...fields }) as LogLine;
    try {
      append(`${JSON.stringify(line)}\n`);
    } catch {
      // A full disk must not stop a sale; the sink still gets the line.
    }
    options.sink?.(line);
  };
  return {
    info: (event, fields) => write('info', event, fields),
    warn: (event, fields) => write('warn', event, fields),
    error: (event, fields) => write('error', event, fields),
    registerSecret: (value) => {
      if (value) redactor.register(value);
    },
  };
}
