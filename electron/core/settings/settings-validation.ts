/**
 * Validation of one environment's settings as the owner types them. Every message names the field
 * and says what a good value looks like. Empty means "not set yet" (the environment is then
 * incomplete, and LIVE cannot be entered), except that a secret or token left empty keeps the stored one.
 */
import { MERCHANT_ID, PUBLIC_KEY_ID, SECRET_KEY, environmentOfKey } from '../../../shared/wire/keys.js';
import { RELAY_TOKEN } from '../../../shared/relay-wire.js';
import type { EnvironmentSettingsInput } from '../../../shared/ipc/contract.js';
import { CoreError } from '../errors.js';
import type { Environment } from '../../../shared/domain.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

function checkUrl(value: string, environment: Environment, field: string, label: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CoreError('SETTINGS_INVALID', `${label}: enter a full web address such as https://pay.example.com`, field);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new CoreError('SETTINGS_INVALID', `${label} must start with https:// (or http:// for a test server)`, field);
  }
  if (url.username || url.password) {
    throw new CoreError('SETTINGS_INVALID', `${label} must not contain a user name or password`, field);
  }
  // The till appends its own paths (/v1/…, the callback URL /v1/webhooks): a ? or # part would end up in
  // the middle of them, and a token pasted there would be kept in settings.json and SQLite.
  if (url.search || url.hash || value.includes('?') || value.includes('#')) {
    throw new CoreError(
      'SETTINGS_INVALID',
      `${label} must be the address alone, without a ? or # part (such as https://pay.example.com)`,
      field,
    );
  }
  if (environment === 'live' && url.protocol !== 'https:' && !isLoopbackUrl(url)) {
    throw new CoreError('SETTINGS_INVALID', `${label} must use https:// in LIVE mode (real money travels over it)`, field);
  }
  return url.toString().replace(/\/+$/, '');
}

export type CleanEnvironmentInput = {
  baseUrl: string;
  merchantId: string;
  publicKeyId: string;
  relayUrl: string;
  /** null: keep the stored one. */
  secretKey: string | null;
  relayToken: string | null;
};

export function validateEnvironmentInput(environment: Environment, input: EnvironmentSettingsInput): CleanEnvironmentInput {
  const ENV = environment.toUpperCase();
  const baseUrl = input.baseUrl.trim();
  const merchantId = input.merchantId.trim();
  const publicKeyId = input.publicKeyId.trim();
  const relayUrl = input.relayUrl.trim();
  const secretKey = input.secretKey?.trim() || null;
  const relayToken = input.relayToken?.trim() || null;

  const clean: CleanEnvironmentInput = { baseUrl: '', merchantId, publicKeyId, relayUrl: '', secretKey, relayToken };
  if (baseUrl) clean.baseUrl = checkUrl(baseUrl, environment, 'baseUrl', 'Service URL');
  if (merchantId && !MERCHANT_ID.test(merchantId)) {
    throw new CoreError('SETTINGS_INVALID', 'Merchant ID looks like MCH_ followed by 12 letters or digits', 'merchantId');
  }
  if (publicKeyId) {
    if (!PUBLIC_KEY_ID.test(publicKeyId)) {
      throw new CoreError('SETTINGS_INVALID', `Public key id looks like pk_${environment}_ followed by letters and digits`, 'publicKeyId');
    }
    if (environmentOfKey(publicKeyId) !== environment) {
      throw new CoreError(
        'SETTINGS_INVALID',
        `This is a ${environmentOfKey(publicKeyId)?.toUpperCase()} public key id; ${ENV} needs one starting pk_${environment}_`,
        'publicKeyId',
      );
    }
  }
  if (secretKey) {
    if (environmentOfKey(secretKey) && environmentOfKey(secretKey) !== environment) {
      throw new CoreError(
        'SETTINGS_INVALID',
        `This is a ${environmentOfKey(secretKey)?.toUpperCase()} secret key; ${ENV} needs one starting sk_${environment}_`,
        'secretKey',
      );
    }
    if (!SECRET_KEY.test(secretKey)) {
      throw new CoreError(
        'SETTINGS_INVALID',
        `Secret key looks like sk_${environment}_ followed by at least 16 letters or digits`,
        'secretKey',
      );
    }
  }
  if (relayUrl) clean.relayUrl = checkUrl(relayUrl, environment, 'relayUrl', 'Relay URL');
  if (relayToken && !RELAY_TOKEN.test(relayToken)) {
    throw new CoreError('SETTINGS_INVALID', 'Relay token looks like rt_ followed by 43 letters, digits, - or _', 'relayToken');
  }
  return clean;
}

/** The callback URL sent at initialize: the relay's webhook receiver. */
export function callbackUrlFor(relayUrl: string): string {
  return relayUrl ? `${relayUrl.replace(/\/+$/, '')}/v1/webhooks` : '';
}
