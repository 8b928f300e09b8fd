/** What the cashier types for one sale, and the pure rules that check it (no React here). */
import { checkAmountEntry, formatAmount, formatGhs, type AmountEntry } from '../../../shared/money';
import type { Network } from '../../../shared/domain';
import { formatNational, guessNetwork, tryNormaliseMsisdn } from '../../../shared/phone';

export type SaleForm = {
  /** The amount as typed, without the GH₵ sign or separators: "12.5" (cedis-first) or "1250" (pesewas-first). */
  amount: string;
  /** The number as typed, compacted: "0241234567" (or "+23324…" while being typed). */
  phone: string;
  /** Network shown in the picker: detected from the prefix until the cashier picks one. */
  network: Network | '';
  networkChosen: boolean;
  description: string;
  customerName: string | null;
};

export const EMPTY_FORM: SaleForm = {
  amount: '',
  phone: '',
  network: '',
  networkChosen: false,
  description: '',
  customerName: null,
};

export type FieldErrors = Partial<Record<'amount' | 'phone' | 'network' | 'description' | 'form', string>>;

/**
 * The amount after the box's text changed (typing, backspace, paste, keypad): the GH₵ sign and thousands
 * separators dropped. A change that cannot be an amount (a third decimal digit) is refused with why.
 */
export function nextAmount(text: string, entry: AmountEntry): { amount: string } | { refused: string } {
  // Pesewas first, the box shows "GH₵12.50" itself: only its digits are the cashier's (a typed point is refused by the field).
  const amount =
    entry === 'pesewas' ? text.replace(/[^0-9]/g, '').replace(/^0+/, '') : text.replace(/GH₵|[\s,]/g, '').replace(/^0+(?=[0-9])/, '');
  const checked = checkAmountEntry(amount, entry);
  return checked.ok ? { amount } : { refused: checked.error };
}

/** What the box shows: "GH₵1,250.5" while typing cedis-first, "GH₵12.50" pesewas-first. */
export function amountText(amount: string, entry: AmountEntry): string {
  if (amount === '') return '';
  if (entry === 'pesewas') return formatGhs(amountPesewas(amount, entry) ?? 0);
  const [cedis = '', fraction] = amount.split('.');
  const grouped = cedis === '' ? '0' : cedis.replace(/\B(?=([0-9]{3})+$)/g, ',');
  return `GH₵${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** Pesewas of what was typed (null while empty or not an amount). */
export function amountPesewas(amount: string, entry: AmountEntry): number | null {
  const checked = checkAmountEntry(amount, entry);
  return checked.ok ? checked.pesewas : null;
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

export function amountError(amount: string, entry: AmountEntry): string | null {
  const pesewas = amountPesewas(amount, entry);
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
export function checkForm(form: SaleForm, entry: AmountEntry): { ok: true; input: ChargeInput } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const aErr = amountError(form.amount, entry);
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
      amount: formatAmount(amountPesewas(form.amount, entry) ?? 0),
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
