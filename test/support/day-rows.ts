/** Final results as the relay delivers them, for the day-close tests (X and Z reports). */
import type { WireTransaction } from '../../shared/wire/transaction.js';

/** A merchantRef as tills make them: `<tillId>.<ULID>` (`id` fills the ULID's end). */
export const merchantRef = (till: string, id: string): string => `${till}.01JD${id.padStart(22, '0')}`;

export type DayResultOptions = {
  env?: 'test' | 'live';
  merchantRef?: string;
  status?: 'SUCCESS' | 'FAILED';
  amount?: string;
  fee?: string;
  net?: string;
  network?: string;
  /** The cashier the echoed metadata names: [id, name]. */
  cashier?: [string, string];
  description?: string;
  completedAt?: string;
};

/** A result of GHS 1.00 (fee 0.02) for TFRONT1, SANDBOX in TEST; `options` change what the test is about. */
export function dayResult(reference: string, options: DayResultOptions = {}): WireTransaction {
  const env = options.env ?? 'test';
  const failed = options.status === 'FAILED';
  return {
    reference,
    clientReference: options.merchantRef ?? merchantRef('TFRONT1', reference),
    status: options.status ?? 'SUCCESS',
    amount: options.amount ?? '1.00',
    fee: failed ? '0.00' : (options.fee ?? '0.02'),
    net: failed ? '0.00' : (options.net ?? '0.98'),
    currency: 'GHS',
    customer: { msisdn: '233241234567', network: options.network ?? (env === 'test' ? 'SANDBOX' : 'MTN') },
    description: options.description ?? 'Sale',
    metadata: options.cashier ? { till: 'TFRONT1', cashierId: options.cashier[0], cashier: options.cashier[1] } : null,
    completedAt: options.completedAt ?? '2026-11-22T08:00:00Z',
    ...(env === 'test' ? { sandbox: true as const } : {}),
  } as WireTransaction;
}
