/**
 * Ghana mobile numbers (MSISDNs).
 *
 * Validity comes from libphonenumber-js (metadata "max", which knows Ghana's mobile ranges);
 * the mobile-money network comes from the national prefix, which in Ghana still identifies the
 * network that issued the number (porting exists but mobile-money wallets follow the prefix,
 * and the cashier can change the detected network).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { NETWORKS, type Network } from './domain.js';

export const NETWORK_LABELS: Record<Network, string> = {
  MTN: 'MTN MoMo',
  TELECEL: 'Telecel Cash',
  AIRTELTIGO: 'AirtelTigo Money',
};

/** National prefixes (after the leading 0) of each network's mobile ranges. */
export const NETWORK_PREFIXES: Record<Network, readonly string[]> = {
  MTN: ['24', '25', '53', '54', '55', '59'],
  TELECEL: ['20', '50'],
  AIRTELTIGO: ['26', '27', '56', '57'],
};

export class PhoneError extends Error {
  override name = 'PhoneError';
}

export type NormalisedMsisdn = {
  /** 233XXXXXXXXX: country code and nine national digits, no plus. */
  msisdn: string;
  /** Network detected from the prefix. */
  network: Network;
  /** 024 123 4567, for display. */
  display: string;
};

/** Strip what people type around a number: spaces, dashes, dots, brackets. */
function compact(input: string): string {
  return input.replace(/[\s\-.()]/g, '');
}

export function networkForPrefix(nationalPrefix: string): Network | null {
  for (const network of NETWORKS) {
    if (NETWORK_PREFIXES[network].includes(nationalPrefix)) return network;
  }
  return null;
}

/**
 * Normalise a Ghana mobile number written any common way ("024 123 4567", "+233241234567",
 * "0241234567", "233241234567", "00233 24 123 4567") to 233XXXXXXXXX and detect its network.
 * Throws PhoneError with a message a cashier understands.
 */
export function normaliseMsisdn(input: unknown): NormalisedMsisdn {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new PhoneError("Enter the customer's mobile number.");
  }
  if (input.length > 32) throw new PhoneError('That number is too long for a Ghana mobile number.');
  let text = compact(input.trim());
  if (/[^0-9+]/.test(text)) throw new PhoneError('A phone number can only contain digits, spaces and a leading +.');
  if (text.startsWith('00')) text = `+${text.slice(2)}`;
  if (/^233[0-9]{9}$/.test(text)) text = `+${text}`;
  if (text.startsWith('+') && !text.startsWith('+233')) {
    throw new PhoneError('Only Ghana numbers (+233) can pay here.');
  }
  const digits = text.replace(/^\+233/, '0');
  if (!/^0[0-9]{9}$/.test(digits)) {
    throw new PhoneError('A Ghana mobile number has 10 digits, such as 024 123 4567.');
  }
  const parsed = parsePhoneNumberFromString(text.startsWith('+') ? text : digits, 'GH');
  if (!parsed || parsed.country !== 'GH' || !parsed.isValid()) {
    throw new PhoneError(`${formatNational(digits)} is not a valid Ghana number.`);
  }
  const type = parsed.getType();
  if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') {
    throw new PhoneError(`${formatNational(digits)} is not a mobile number; mobile money needs a mobile number.`);
  }
  const national = parsed.nationalNumber; // nine digits, no leading 0
  const network = networkForPrefix(national.slice(0, 2));
  if (!network) {
    throw new PhoneError(`${formatNational(digits)} is not on MTN, Telecel or AirtelTigo; ask for a mobile-money number.`);
  }
  return { msisdn: `233${national}`, network, display: formatNational(`0${national}`) };
}

/** Result-returning form of normaliseMsisdn. */
export function tryNormaliseMsisdn(input: unknown): ({ ok: true } & NormalisedMsisdn) | { ok: false; error: string } {
  try {
    return { ok: true, ...normaliseMsisdn(input) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** "0241234567" -> "024 123 4567"; partial input is grouped as far as it goes (for live formatting). */
export function formatNational(digits: string): string {
  const d = digits.replace(/[^0-9]/g, '');
  const parts = [d.slice(0, 3), d.slice(3, 6), d.slice(6, 10)].filter((p) => p !== '');
  return parts.join(' ') + (d.length > 10 ? d.slice(10) : '');
}

/** 233241234567 -> "024 123 4567" for display of a normalised MSISDN. */
export function displayMsisdn(msisdn: string): string {
  if (/^233[0-9]{9}$/.test(msisdn)) return formatNational(`0${msisdn.slice(3)}`);
  return msisdn;
}

/** Best-effort network guess while a cashier is still typing (null until a prefix is known). */
export function guessNetwork(partial: string): Network | null {
  let d = compact(partial);
  if (d.startsWith('00233'))
    d = `0${d.slice(5)}`; // international prefix typed as 00, as normaliseMsisdn accepts
  else if (d.startsWith('+233')) d = `0${d.slice(4)}`;
  else if (d.startsWith('233')) d = `0${d.slice(3)}`;
  if (!/^0[0-9]{2}/.test(d)) return null;
  return networkForPrefix(d.slice(1, 3));
}
