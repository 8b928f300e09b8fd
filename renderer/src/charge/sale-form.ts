/** What the cashier types for one sale, and the pure rules that check it (no React here). */
import { formatAmount, formatGhs, keypadDigitsToPesewas, MAX_AMOUNT_DIGITS } from '../../../shared/money';
import type { Network } from '../../../shared/domain';
import { formatNational, guessNetwork, tryNormaliseMsisdn } from '../../../shared/phone';

export type SaleForm = {
  /** Keypad digits, cents-first: "1250" is GH₵12.50. */
  digits: string;
  /** The number as typed, compacted: "0241234567" (or "+23324…" while being typed). */
  phone: string;
  /** Network shown in the picker: detected from the prefix until the cashier picks one. */
  network: Network | '';
  networkChosen: boolean;
  description: string;
  customerName: string | null;
};

export const EMPTY_FORM: SaleForm = {
  digits: '',
  phone: '',
  network: '',
  networkChosen: false,
  description: '',
  customerName: null,
};

export type FieldErrors = Partial<Record<'amount' | 'phone' | 'network' | 'description' | 'form', string>>;

const MAX_DIGITS = MAX_AMOUNT_DIGITS + 2;

/** New keypad digits from whatever the amount box now shows (typing, backspace, paste all work). */
export function digitsFromAmountText(text: string, previous: string): string {
  const digits = text.replace(/[^0-9]/g, '').replace(/^0+/, '');
  return digits.length > MAX_DIGITS ? previous : digits;
}

export function amountText(digits: string): string {
  const pesewas = keypadDigitsToPesewas(digits);
  return pesewas === null ? '' : formatGhs(pesewas);
}

/** Keep what was typed as a national number: "+233 24…" / "23324…" become "024…"; at most 10 digits. */
export function phoneFromText(text: string): string {
  const trimmed = text.trim();
  let digits = trimmed.replace(/[^0-9]/g, '');
  if ((trimmed.startsWith('+') || digits.startsWith('233')) && digits.startsWith('233') && digits.length > 3) {
    digits = `0${digits.slice(3)}`;
  } else if (trimmed.startsWith('+')) {
    return `+${digits}`.slice(0, 13);
  }
  return digits.slice(0, 10);
}

export function phoneText(phone: string): string {
  return phone.startsWith('+') ? phone : formatNational(phone);
}

/** Network after the number changed: follow the prefix unless the cashier chose one. */
export function withPhone(form: SaleForm, phone: string): SaleForm {
  const detected = guessNetwork(phone);
  const network = form.networkChosen ? form.network : (detected ?? '');
  const customerName = phone === form.phone ? form.customerName : null;
  return { ...form, phone, network, customerName };
}

export function amountError(digits: string): string | null {
  const pesewas = keypadDigitsToPesewas(digits);
  if (pesewas === null || pesewas <= 0) return 'Type the amount to charge (more than GH₵0.00).';
  return null;
}

export function phoneError(phone: string): string | null {
  if (phone === '') return "Type the customer's mobile-money number.";
  const result = tryNormaliseMsisdn(phone);
  return result.ok ? null : result.error;
}

export type ChargeInput = {
  amount: string;
  msisdn: string;
  network: Network;
  description?: string;
  customerName: string | null;
};

/** Validate the whole form: either the charge request body or the errors to show. */
export function checkForm(form: SaleForm): { ok: true; input: ChargeInput } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const aErr = amountError(form.digits);
  if (aErr) errors.amount = aErr;
  const number = tryNormaliseMsisdn(form.phone);
  if (form.phone === '') errors.phone = "Type the customer's mobile-money number.";
  else if (!number.ok) errors.phone = number.error;
  const network = form.network || (number.ok ? number.network : '');
  if (!errors.phone && !network) errors.network = 'Choose the network of the customer’s wallet.';
  if (form.description.length > 140) errors.description = 'The description can be at most 140 characters.';
  if (Object.keys(errors).length > 0 || !number.ok || !network) return { ok: false, errors };
  const description = form.description.trim();
  return {
    ok: true,
    input: {
      amount: formatAmount(keypadDigitsToPesewas(form.digits) ?? 0),
      msisdn: number.msisdn,
      network,
      ...(description ? { description } : {}),
      customerName: form.customerName,
    },
  };
}

export function newRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
