/** What the PostgreSQL commands read: their flags, a required flag, stdin. */
import { TenantError } from '../store/pg/index.js';
import { PROG } from './usage.js';

export type PgCliValues = {
  'database-url'?: string;
  'master-key-file'?: string;
  'from-sqlite'?: string;
  'public-id'?: string;
  merchant?: string;
  label?: string;
  'expires-in'?: string;
  name?: string;
  id?: string;
  'new-key-file'?: string;
  'key-file'?: string;
  json?: boolean;
  all?: boolean;
  'discard-unread'?: string;
  limit?: string;
  after?: string;
};

export function required(value: string | undefined, flag: string, command: string): string {
  if (!value) throw new TenantError(`${PROG} ${command} needs --${flag}`);
  return value;
}

/** A secret or key from stdin (never from an argument, which other users can see in the process list). */
export async function readStdin(command = 'key add', what = 'the secret'): Promise<string> {
  if (process.stdin.isTTY) throw new TenantError(`${command} reads ${what} from stdin: pipe it in (… < file), never as an argument`);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text) throw new TenantError(`${command}: nothing on stdin (expected ${what})`);
  return text;
}

/** `--expires-in 90d` (days) or `12h` (hours): the instant that far from now. */
export function expiryFrom(text: string | undefined, now = Date.now()): Date | undefined {
  if (text === undefined) return undefined;
  const m = /^([1-9][0-9]{0,4})([dh])$/.exec(text);
  if (!m) throw new TenantError(`--expires-in: a number of days or hours, like 90d or 12h (given "${text}")`);
  return new Date(now + Number(m[1]) * (m[2] === 'd' ? 86_400_000 : 3_600_000));
}
