/** What the cashier types for one sale, and the pure rules that check it (no React here). */
import { checkAmountEntry, formatAmount, formatGhs, MAX_PESEWAS, type AmountEntry } from '../../../shared/money';
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

const MOST = formatGhs(MAX_PESEWAS);

/** What the cashier added to the box: `text` less what it already showed (`shown`) before and after the change. */
function added(shown: string, text: string): string {
  let start = 0;
  while (start < shown.length && start < text.length && shown[start] === text[start]) start += 1;
  let end = 0;
  while (end < shown.length - start && end < text.length - start && shown.at(-1 - end) === text.at(-1 - end)) end += 1;
  return text.slice(start, text.length - end).replace(/GH₵|\s/g, '');
}

/** Why what was added cannot be part of an amount, and how to write it; null when it can. */
function refusalOf(add: string, clean: string, entry: AmountEntry): string | null {
  const example = entry === 'pesewas' ? '1 2 5 0 for GH₵12.50' : '12.50';
  if (/\p{L}/u.test(add)) return `Letters cannot be typed into the amount: type it in digits, such as ${example}.`;
  if (/[-−–]/.test(add)) return `An amount cannot be below zero: type it without the minus sign, such as ${example}.`;
  if (entry === 'pesewas' && /[.,]/.test(add)) {
    return add.includes('.')
      ? POINT_REFUSED_PESEWAS
      : 'Pesewas first, type digits only: 1 2 5 0 is GH₵12.50 (the box puts in the point and commas itself).';
  }
  // A comma only where thousands are grouped ("1,000.50" pasted as written); "10,00" means a point.
  if (add.includes(',') && !/^[0-9]{1,3}(,[0-9]{3})*(\.[0-9]*)?$/.test(clean)) {
    return 'Type a point for pesewas, such as 10.50: a comma only groups thousands (1,000), and the box puts those in itself.';
  }
  if (/[^0-9.,]/.test(add)) return `Only digits and one point can be typed into the amount, such as ${example}.`;
  return null;
}

export const POINT_REFUSED_PESEWAS = 'Pesewas first, there is no point to type: 1 2 5 0 is GH₵12.50 (Settings can switch to cedis first).';

/**
 * The amount after the box's text changed (typing, backspace, paste, keypad): the GH₵ sign and thousands
 * separators dropped. A change that cannot be an amount is refused with what is wrong and how to write it, and
 * the box keeps what it held (`before`, the amount it showed): a letter, minus or stray comma is never dropped
 * silently ("10,00" would be GH₵1,000.00).
 */
export function nextAmount(text: string, entry: AmountEntry, before = ''): { amount: string } | { refused: string } {
  const clean = text.replace(/GH₵|\s/g, '');
  const refusal = refusalOf(added(amountText(before, entry), text), clean, entry);
  if (refusal) return { refused: refusal };
  // Pesewas first, the box shows "GH₵12.50" itself: only its digits are the cashier's.
  const amount =
    entry === 'pesewas' ? clean.replace(/[^0-9]/g, '').replace(/^0+/, '') : clean.replace(/,/g, '').replace(/^0+(?=[0-9])/, '');
  if (entry === 'cedis' && (amount.match(/\./g) ?? []).length > 1) {
    return { refused: 'One point only: the pesewas go after it, such as 12.50.' };
  }
  const checked = checkAmountEntry(amount, entry);
  if (checked.ok) return { amount };
  if (/too large/.test(checked.error)) return { refused: `That is more than a till can charge: type an amount of at most ${MOST}.` };
  if (/Two digits at most/.test(checked.error)) {
    return { refused: 'Two digits at most after the point, such as 12.50: pesewas go from .01 to .99.' };
  }
  return { refused: `${checked.error} Type it such as 12.50.` };
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
  if (amount === '') return 'Type the amount to charge (more than GH₵0.00).';
  if (pesewas === null) return 'A point alone is no amount: type the cedis before it, such as 12.50.';
  if (pesewas <= 0) return 'GH₵0.00 cannot be charged: type the amount the customer pays, such as 5 or 12.50.';
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
