/**
 * What Charge asks the cashier to confirm before a prompt goes out: an amount outside the shop's usual
 * range (shown large), a number the service says has no wallet, and a second prompt to a number that
 * already has one awaiting its answer or PAID a few minutes ago for the same amount. Each needs an
 * explicit yes; Enter on the question means "No, go back".
 */
import type { CounterSettings, SimilarPayment } from '../../../shared/ipc/contract';
import { formatGhs, parseAmount } from '../../../shared/money';
import { call } from '../api';
import type { AccountLookup } from './use-account-name';

export type ChargeCheck =
  | { kind: 'amount-low'; pesewas: number; bound: number }
  | { kind: 'amount-high'; pesewas: number; bound: number }
  | { kind: 'no-account'; message: string }
  | { kind: 'duplicate'; earlier: SimilarPayment };
export type CheckKind = ChargeCheck['kind'];

/**
 * The earlier payment to this number for this amount, anywhere in the shop, that is still open or was PAID
 * a few minutes ago. The core decides it (`payments:similar`): a cashier's History shows only their own shift.
 */
export async function earlierPayment(msisdn: string, amount: string): Promise<SimilarPayment | null> {
  return (await call('payments:similar', { msisdn, amount })).earlier;
}

type Sale = { msisdn: string; amount: string };

/** The first question still to ask about this sale (those in `accepted` were answered yes), or null. */
export async function nextCheck(
  sale: Sale,
  counter: CounterSettings,
  lookup: AccountLookup,
  accepted: readonly CheckKind[],
): Promise<ChargeCheck | null> {
  const pesewas = parseAmount(sale.amount);
  const minimum = parseAmount(counter.minimum, { allowZero: true });
  const above = parseAmount(counter.confirmAbove);
  if (pesewas < minimum && !accepted.includes('amount-low')) return { kind: 'amount-low', pesewas, bound: minimum };
  if (pesewas > above && !accepted.includes('amount-high')) return { kind: 'amount-high', pesewas, bound: above };
  if (lookup.state === 'none' && lookup.noAccount && !accepted.includes('no-account'))
    return { kind: 'no-account', message: lookup.message };
  if (!accepted.includes('duplicate')) {
    // If the core cannot answer, charging goes on: the service still refuses a true duplicate request.
    const earlier = await earlierPayment(sale.msisdn, sale.amount).catch(() => null);
    if (earlier) return { kind: 'duplicate', earlier };
  }
  return null;
}

export function amountQuestion(check: Extract<ChargeCheck, { kind: 'amount-low' | 'amount-high' }>): string {
  return check.kind === 'amount-low'
    ? `That is less than ${formatGhs(check.bound)}. Is the amount right?`
    : `That is more than ${formatGhs(check.bound)}. Is the amount right?`;
}
