/**
 * Structured logging that cannot leak secrets: every line passes through `redact`, which masks
 * values under secret-looking keys, anything shaped like a secret key or relay token, and every
 * secret value the core has registered (whatever its shape). Lines go to <dataDir>/logs/till.log
 * and to the optional sink given to the core.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const SECRET_KEY_NAMES = /secret|token|password|authorization|pin|cookie/i;
const SECRET_SHAPES: Array<[RegExp, string]> = [
  [/sk_(test|live)_[A-Za-z0-9]+/g, 'sk_$1_••••'],
  [/rt_[A-Za-z0-9_-]{20,}/g, 'rt_••••'],
  [/Bearer\s+[^\s"']+/gi, 'Bearer ••••'],
];

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
    if (value === null || typeof value !== 'object' || depth > 6) return value;
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

export function createLogger(options: { dataDir: string; sink?: (line: LogLine) => void; now: () => number }): Logger {
  const dir = join(options.dataDir, 'logs');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'till.log');
  const redactor = createRedactor();
  const write = (level: string, event: string, fields: LogLine = {}) => {
    const line = redactor.redact({ time: new Date(options.now()).toISOString(), level, event, ...fields }) as LogLine;
    try {
      appendFileSync(file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
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
