/**
 * The relay's configuration: a JSON file validated with zod, every setting overridable by an
 * environment variable (for containers). Errors name the bad field.
 *
 *   {"keys":[{"publicId":"pk_test_…","secret":"sk_test_…"}],
 *    "tills":[{"label":"front-counter","tokenHash":"sha256:<hex>"}],
 *    "signedPayload":"body"}
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { SIGNED_PAYLOADS, DEFAULT_TOLERANCE_SECONDS } from '../../shared/webhook-signature.js';
import { PUBLIC_KEY_ID, SECRET_KEY, environmentOfKey } from '../../shared/wire/keys.js';
import { checkLimits, LIMIT_ENV_VARS, limitFields } from './limits.js';
import { RelayConfigError } from './config-error.js';

export const TOKEN_HASH = /^sha256:[0-9a-f]{64}$/;

export const relayKeySchema = z
  .object({
    publicId: z.string().regex(PUBLIC_KEY_ID, 'must look like pk_test_… or pk_live_…'),
    secret: z.string().regex(SECRET_KEY, 'must look like sk_test_… or sk_live_…'),
    /** Optional note, e.g. "rotated 2026-11". */
    label: z.string().max(64).optional(),
  })
  .strict()
  .superRefine((key, ctx) => {
    const keyEnvironment = environmentOfKey(key.publicId);
    const secretEnvironment = environmentOfKey(key.secret);
    // A value that is no key at all is already reported by its own pattern.
    if (keyEnvironment && secretEnvironment && keyEnvironment !== secretEnvironment) {
      ctx.addIssue({
        code: 'custom',
        path: ['secret'],
        message: `is a ${secretEnvironment} key but publicId is a ${keyEnvironment} key`,
      });
    }
  });

export const relayTillSchema = z
  .object({
    label: z
      .string()
      .min(1, 'must not be empty')
      .max(64)
      .regex(/^[A-Za-z0-9 ._:-]+$/, 'may hold letters, digits, space and . _ : -'),
    tokenHash: z.string().regex(TOKEN_HASH, 'must be sha256:<64 lower-case hex digits>'),
    createdAt: z.string().optional(),
  })
  .strict();

export const relayConfigSchema = z
  .object({
    /** Service keys whose deliveries are accepted. Several at once during a rotation. */
    keys: z.array(relayKeySchema).default([]),
    /** Tills allowed to read results, each with its own revocable token (stored hashed). */
    tills: z.array(relayTillSchema).default([]),
    /** What the service signs: the raw body, or "<timestamp>.<raw body>". */
    signedPayload: z.enum(SIGNED_PAYLOADS).default('body'),
    /** Tolerance for X-Service-Timestamp when it is signed. */
    timestampToleranceSeconds: z.number().int().min(1).max(86_400).default(DEFAULT_TOLERANCE_SECONDS),
    /** Largest webhook body accepted; 413 beyond. */
    maxBodyBytes: z
      .number()
      .int()
      .min(1024)
      .max(16 * 1024 * 1024)
      .default(64 * 1024),
    /** SSE heartbeat period: tills take a stream silent for 12 s as dead (relay-client.ts), so at most 10 s. */
    heartbeatSeconds: z.number().min(0.05).max(10).default(5),
    /** Largest number of deliveries committed together. */
    groupCommitMaxBatch: z.number().int().min(1).max(10_000).default(512),
    /** Extra wait before a group commit to gather more deliveries (0: gather what arrived in the same tick). */
    groupCommitWindowMs: z.number().min(0).max(50).default(0),
    /**
     * How long a commit waits for a lock on the database before failing (answered 503: the database file is the instance's). Commits run
     * on the main thread, so the relay stands still for that long: keep it short.
     */
    busyTimeoutMs: z.number().int().min(10).max(60_000).default(1_000),
    /** Largest page of GET /v1/transactions. */
    maxPageSize: z.number().int().min(1).max(5_000).default(500),
    /** Largest number of simultaneous SSE clients (per instance). */
    maxSseClients: z.number().int().min(1).max(100_000).default(1_000),
    /** Most event streams one merchant may hold open on an instance (its tills, test and live). */
    maxStreamsPerMerchant: z.number().int().min(1).max(100_000).default(200),
    /** Most event streams one till token may hold open on an instance. */
    maxStreamsPerToken: z.number().int().min(1).max(1_000).default(16),
    ...limitFields,
  })
  .strict()
  .superRefine((config, ctx) => {
    checkLimits(config, ctx);
    const seenKeys = new Set<string>();
    config.keys.forEach((key, i) => {
      if (seenKeys.has(key.publicId)) {
        ctx.addIssue({ code: 'custom', path: ['keys', i, 'publicId'], message: `duplicate key ${key.publicId}` });
      }
      seenKeys.add(key.publicId);
    });
    const seenLabels = new Set<string>();
    config.tills.forEach((till, i) => {
      if (seenLabels.has(till.label)) {
        ctx.addIssue({ code: 'custom', path: ['tills', i, 'label'], message: `duplicate till label "${till.label}"` });
      }
      seenLabels.add(till.label);
    });
  });

export type RelayConfig = z.infer<typeof relayConfigSchema>;
export type RelayConfigInput = z.input<typeof relayConfigSchema>;
export type RelayKey = z.infer<typeof relayKeySchema>;

export { RelayConfigError } from './config-error.js';

/** Every zod issue as "field.path: message", secrets never echoed. */
export function describeConfigError(error: z.ZodError, source: string, envOf: Record<string, string> = {}): string {
  const lines = error.issues.map((issue) => {
    const path = issue.path.map(String).join('.') || '(root)';
    const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
    const top = issue.path[0];
    const from = typeof top === 'string' && envOf[top] ? ` (set by ${envOf[top]})` : '';
    return `  ${path}${from}: ${message}`;
  });
  return `Invalid relay config (${source}):\n${lines.join('\n')}`;
}

/**
 * Environment variables, each overriding one setting. Values are JSON for the lists,
 * plain text or numbers otherwise.
 */
export const CONFIG_ENV_VARS = {
  RELAY_KEYS: 'keys',
  RELAY_TILLS: 'tills',
  RELAY_SIGNED_PAYLOAD: 'signedPayload',
  RELAY_TIMESTAMP_TOLERANCE_SECONDS: 'timestampToleranceSeconds',
  RELAY_MAX_BODY_BYTES: 'maxBodyBytes',
  RELAY_HEARTBEAT_SECONDS: 'heartbeatSeconds',
  RELAY_GROUP_COMMIT_MAX_BATCH: 'groupCommitMaxBatch',
  RELAY_GROUP_COMMIT_WINDOW_MS: 'groupCommitWindowMs',
  RELAY_BUSY_TIMEOUT_MS: 'busyTimeoutMs',
  RELAY_MAX_PAGE_SIZE: 'maxPageSize',
  RELAY_MAX_SSE_CLIENTS: 'maxSseClients',
  RELAY_MAX_STREAMS_PER_MERCHANT: 'maxStreamsPerMerchant',
  RELAY_MAX_STREAMS_PER_TOKEN: 'maxStreamsPerToken',
  ...LIMIT_ENV_VARS,
} as const satisfies Record<string, keyof RelayConfig>;

const JSON_SETTINGS = new Set<string>(['keys', 'tills']);
const TEXT_SETTINGS = new Set<string>(['signedPayload']);

/** The raw (unvalidated) overrides found in `env`. */
export function envOverrides(env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(CONFIG_ENV_VARS)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    if (JSON_SETTINGS.has(field)) {
      try {
        out[field] = JSON.parse(value);
      } catch {
        throw new RelayConfigError(`Invalid relay config (${name}): ${field}: must be JSON`);
      }
    } else if (TEXT_SETTINGS.has(field)) {
      out[field] = value;
    } else {
      const n = Number(value);
      out[field] = Number.isFinite(n) ? n : value;
    }
  }
  return out;
}

/**
 * The config of a store: with SQLite the keys and tills live here (at least one key); with
 * PostgreSQL they live in the database, and the file holds only the settings.
 */
export function parseRelayConfig(
  raw: unknown,
  source = 'config',
  envOf: Record<string, string> = {},
  store: 'sqlite' | 'postgres' = 'sqlite',
): RelayConfig {
  const result = relayConfigSchema.safeParse(raw);
  if (!result.success) throw new RelayConfigError(describeConfigError(result.error, source, envOf));
  const config = result.data;
  const from = (field: string) => (envOf[field] ? ` (set by ${envOf[field]})` : '');
  if (store === 'sqlite' && config.keys.length === 0) {
    const given = typeof raw === 'object' && raw !== null && (raw as { keys?: unknown }).keys !== undefined;
    const problem = given ? 'needs at least one service key' : 'is required';
    throw new RelayConfigError(`Invalid relay config (${source}):\n  keys${from('keys')}: ${problem}`);
  }
  if (store === 'postgres' && (config.keys.length > 0 || config.tills.length > 0)) {
    const field = config.keys.length > 0 ? 'keys' : 'tills';
    throw new RelayConfigError(
      `Invalid relay config (${source}):\n  ${field}${from(field)}: with --database-url, service keys and till tokens live in the database ` +
        '(momo-relay key add, momo-relay token create); leave them out of the config',
    );
  }
  return config;
}

export function readJsonFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new RelayConfigError(`Cannot read relay config ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    // Only where: the parser's own message quotes the text around the error, which may be a secret.
    throw new RelayConfigError(`Relay config ${file} is not valid JSON ${jsonErrorPlace(text, (err as Error).message)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new RelayConfigError(`Relay config ${file} must hold a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/** "at line L, column C" of a JSON.parse error, from the position in its message (or the end of the text). */
export function jsonErrorPlace(text: string, message: string): string {
  const m = /at position (\d+)/.exec(message);
  const position = m ? Math.min(Number(m[1]), text.length) : text.length;
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `at line ${line}, column ${column}`;
}

/**
 * Loads and validates the config file, then applies environment overrides. `file` may be
 * undefined when the environment supplies everything (at least RELAY_KEYS).
 */
export function loadRelayConfig(
  file: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  store: 'sqlite' | 'postgres' = 'sqlite',
): RelayConfig {
  const base = file ? readJsonFile(file) : {};
  const overrides = envOverrides(env);
  const envOf: Record<string, string> = {};
  for (const [name, field] of Object.entries(CONFIG_ENV_VARS)) if (field in overrides) envOf[field] = name;
  const names = Object.values(envOf);
  const source = [file ?? '(no file)', ...(names.length ? [`environment overrides: ${names.join(', ')}`] : [])].join('; ');
  return parseRelayConfig({ ...base, ...overrides }, source, envOf, store);
}

/** SHA-256 of the token, as kept at rest: `sha256:<hex>`. */
export function hashRelayToken(token: string): string {
  return `sha256:${createHash('sha256').update(token, 'utf8').digest('hex')}`;
}

/** A new till token (`rt_` + 32 random bytes, base64url) and its hash. Show the token once. */
export function createRelayToken(): { token: string; tokenHash: string } {
  const token = `rt_${randomBytes(32).toString('base64url')}`;
  return { token, tokenHash: hashRelayToken(token) };
}
