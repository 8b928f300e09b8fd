/** The transaction object as the service carries it in a webhook's `data` (spec 2.1). */
import { z } from 'zod';
import { tryParseAmount } from '../money.js';

export const TRANSACTION_STATUSES = ['SUCCESS', 'FAILED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** A wire amount: a decimal string with exactly two places. `positive` rejects "0.00". */
export function amountString(options: { positive: boolean }) {
  return z.string().superRefine((value, ctx) => {
    const parsed = tryParseAmount(value, { allowZero: !options.positive });
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
  });
}

/**
 * A service reference as a manager copies it from the service's dashboard to settle a payment by hand.
 * Project assumption (the spec shows no shape): 4–128 letters, digits and `. _ : -`, starting with a letter
 * or digit; the sandbox's are `TX_<ULID>`.
 */
export const TYPED_REFERENCE = /^[A-Za-z0-9][A-Za-z0-9._:-]{3,127}$/;
/** A payment settled by hand as not paid is stored under this prefix and its merchantRef: `#` is never in a typed reference. */
export const NOT_PAID_REFERENCE_PREFIX = 'NOT-PAID#';

export const isoDateTimeSchema = z.iso.datetime({ offset: true });

export const customerSchema = z.looseObject({
  msisdn: z.string().regex(/^233[0-9]{9}$/, 'customer.msisdn must be 233 followed by nine digits'),
  // Tolerant: a real service may add networks; the till shows what it does not know as-is.
  network: z.string().min(1).max(32),
});

/** Unknown extra fields are tolerated (looseObject); missing required ones are errors. */
export const transactionSchema = z
  .looseObject({
    reference: z.string().min(1).max(128),
    clientReference: z.string().max(128).nullable(),
    status: z.enum(TRANSACTION_STATUSES),
    amount: amountString({ positive: true }),
    fee: amountString({ positive: false }),
    net: amountString({ positive: false }),
    currency: z.literal('GHS'),
    customer: customerSchema,
    description: z.string().max(1024),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    completedAt: isoDateTimeSchema,
    sandbox: z.literal(true).optional(),
  })
  .superRefine((tx, ctx) => {
    if (tx.status === 'FAILED' && (tx.fee !== '0.00' || tx.net !== '0.00')) {
      ctx.addIssue({ code: 'custom', path: ['fee'], message: 'A FAILED transaction has fee and net "0.00"' });
    }
    if (tx.status === 'SUCCESS') {
      const a = tryParseAmount(tx.amount);
      const f = tryParseAmount(tx.fee, { allowZero: true });
      const n = tryParseAmount(tx.net, { allowZero: true });
      if (a.ok && f.ok && n.ok && a.pesewas - f.pesewas !== n.pesewas) {
        ctx.addIssue({ code: 'custom', path: ['net'], message: 'net must equal amount minus fee' });
      }
    }
  });

export type WireTransaction = z.infer<typeof transactionSchema>;
