/**
 * Non-secret settings in <dataDir>/settings.json (written atomically), secrets in the keychain.
 * The renderer only ever gets `EnvironmentSettingsView`: masked secret, whether a token is set.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Environment } from '../../../shared/domain.js';
import { environmentSchema } from '../../../shared/domain-schemas.js';
import { AMOUNT_ENTRIES, MAX_PESEWAS } from '../../../shared/money.js';
import { maskSecret } from '../../../shared/wire/keys.js';
import { ENVIRONMENT_SETTINGS, type EnvironmentSetting, type EnvironmentSettingsView } from '../../../shared/ipc/contract.js';
import { DEFAULT_RECEIPT_SETTINGS, receiptSettingsSchema } from '../../../shared/receipt/receipt-settings.js';
import { CoreError } from '../errors.js';
import { isValidTimeZone } from '../../../shared/local-date.js';
import { secretAccount, type SecretStore } from '../storage/index.js';
import { callbackUrlFor, type CleanEnvironmentInput } from './settings-validation.js';

/** Cedis first, as Ghanaian prices are written; confirm below GH₵1.00 and above GH₵1,000.00. */
export const DEFAULT_COUNTER = { amountEntry: 'cedis', minimumPesewas: 100, confirmAbovePesewas: 100_000 } as const;

const storedEnvironmentSchema = z.object({
  baseUrl: z.string(),
  merchantId: z.string(),
  publicKeyId: z.string(),
  relayUrl: z.string(),
});
const storedSettingsSchema = z.object({
  version: z.literal(1),
  tillId: z.string().regex(/^[A-Za-z0-9]{4,20}$/),
  tillName: z.string(),
  // Checked on load: an unknown zone would make every local date (takings, history) throw.
  timeZone: z.string().refine(isValidTimeZone, 'not a time zone known to this computer'),
  active: environmentSchema,
  /** The owner PIN of a version before staff existed: moved into the staff table at the next start. */
  pinHash: z.string().nullable(),
  /** Minutes without use before the till locks itself (a signed-in person must type their PIN again). */
  idleLockMinutes: z.number().int().min(1).max(240).default(5),
  test: storedEnvironmentSchema,
  live: storedEnvironmentSchema,
  embeddedPorts: z.object({ sandbox: z.number().int(), relay: z.number().int() }).nullable(),
  // Settings written before receipts could be set up read as the defaults.
  receipt: receiptSettingsSchema.default(() => ({ ...DEFAULT_RECEIPT_SETTINGS })),
  // Added after version 1 files existed: a file without it gets the defaults.
  counter: z
    .object({
      amountEntry: z.enum(AMOUNT_ENTRIES),
      minimumPesewas: z.number().int().min(0).max(MAX_PESEWAS),
      confirmAbovePesewas: z.number().int().min(1).max(MAX_PESEWAS),
    })
    .default(DEFAULT_COUNTER),
});
export type StoredSettings = z.infer<typeof storedSettingsSchema>;
export type StoredEnvironment = z.infer<typeof storedEnvironmentSchema>;

/** Everything the payment side needs for one environment, secrets included (never leaves the core). */
export type EnvironmentConfig = StoredEnvironment & {
  environment: Environment;
  secretKey: string | null;
  relayToken: string | null;
  callbackUrl: string;
  embedded: boolean;
};

const EMPTY_ENV: StoredEnvironment = { baseUrl: '', merchantId: '', publicKeyId: '', relayUrl: '' };
const TILL_ID_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ0123456789';

function newTillId(): string {
  const bytes = randomBytes(8);
  return `T${Array.from(bytes, (b) => TILL_ID_ALPHABET[b % TILL_ID_ALPHABET.length]).join('')}`;
}

/** The settings this environment still lacks, in the form's order: the one check behind "complete", the LIVE switch and its list. */
export function missingSettings(config: EnvironmentConfig): EnvironmentSetting[] {
  return ENVIRONMENT_SETTINGS.filter((k) => !config[k]);
}

export function isComplete(config: EnvironmentConfig): boolean {
  return missingSettings(config).length === 0;
}

export function toView(config: EnvironmentConfig): EnvironmentSettingsView {
  return {
    baseUrl: config.baseUrl,
    merchantId: config.merchantId,
    publicKeyId: config.publicKeyId,
    secretKeyMasked: maskSecret(config.secretKey),
    relayUrl: config.relayUrl,
    relayTokenSet: Boolean(config.relayToken),
    callbackUrl: config.callbackUrl,
    complete: isComplete(config),
    embedded: config.embedded,
  };
}

export class SettingsStore {
  private readonly file: string;
  private current: StoredSettings;

  constructor(
    dataDir: string,
    private readonly secrets: SecretStore,
    defaults: { tillName: string; timeZone: string },
  ) {
    this.file = join(dataDir, 'settings.json');
    if (existsSync(this.file)) {
      let json: unknown;
      try {
        json = JSON.parse(readFileSync(this.file, 'utf8'));
      } catch {
        throw new CoreError('INTERNAL', `settings.json is damaged (it is not valid JSON); fix or remove it: ${this.file}`);
      }
      const parsed = storedSettingsSchema.safeParse(json);
      if (!parsed.success)
        throw new CoreError('INTERNAL', `settings.json is damaged (${parsed.error.issues[0]?.path.join('.')}); fix or remove it.`);
      this.current = parsed.data;
    } else {
      if (!isValidTimeZone(defaults.timeZone))
        throw new CoreError('INTERNAL', `"${defaults.timeZone}" is not a time zone (e.g. Africa/Accra).`);
      this.current = {
        version: 1,
        tillId: newTillId(),
        tillName: defaults.tillName,
        timeZone: defaults.timeZone,
        active: 'test',
        pinHash: null,
        idleLockMinutes: 5,
        test: { ...EMPTY_ENV },
        live: { ...EMPTY_ENV },
        embeddedPorts: null,
        receipt: { ...DEFAULT_RECEIPT_SETTINGS },
        counter: { ...DEFAULT_COUNTER },
      };
      this.write();
    }
  }

  get settings(): Readonly<StoredSettings> {
    return this.current;
  }

  update(patch: Partial<StoredSettings>): void {
    this.current = storedSettingsSchema.parse({ ...this.current, ...patch });
    this.write();
  }

  async saveEnvironment(environment: Environment, clean: CleanEnvironmentInput): Promise<void> {
    // Secrets first: if the keychain refuses, nothing is half-saved in the file.
    if (clean.secretKey) await this.secrets.set(secretAccount(environment, 'secret-key'), clean.secretKey);
    if (clean.relayToken) await this.secrets.set(secretAccount(environment, 'relay-token'), clean.relayToken);
    const { baseUrl, merchantId, publicKeyId, relayUrl } = clean;
    this.update({ [environment]: { baseUrl, merchantId, publicKeyId, relayUrl } } as Partial<StoredSettings>);
  }

  /** The stored configuration of one environment with its secrets read from the keychain. */
  async storedConfig(environment: Environment): Promise<EnvironmentConfig> {
    const stored = this.current[environment];
    const [secretKey, relayToken] = await Promise.all([
      this.secrets.get(secretAccount(environment, 'secret-key')),
      this.secrets.get(secretAccount(environment, 'relay-token')),
    ]);
    return { ...stored, environment, secretKey, relayToken, callbackUrl: callbackUrlFor(stored.relayUrl), embedded: false };
  }

  private write(): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(this.current, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
