/** A cashier's charge, checked field by field, and the exact initialize request the till sends (and re-sends) for it. */
import { paymentMetadata, type Cashier, type TillLabel } from '../../../shared/wire/payment-metadata.js';
import { isNetwork, NETWORK_REQUIRED_MESSAGE, type Network } from '../../../shared/domain.js';
import { MoneyError, parseAmount } from '../../../shared/money.js';
import { normaliseMsisdn, PhoneError } from '../../../shared/phone.js';
import { plainText } from '../../../shared/outside-text.js';

export type ChargeInput = {
  requestId: string;
  amount: string;
  msisdn: string;
  network: string;
  description?: string;
  customerName?: string | null;
};

export type CheckedCharge = { pesewas: number; msisdn: string; network: Network; description: string };
export type ChargeRefusal = { ok: false; field: string; message: string };

/** The amount in pesewas, the number as 233XXXXXXXXX, a known network; or the field to fix. */
export function checkCharge(input: ChargeInput): { ok: true; charge: CheckedCharge } | ChargeRefusal {
  let pesewas: number;
  let msisdn: string;
  try {
    pesewas = parseAmount(input.amount);
  } catch (error) {
    if (error instanceof MoneyError) return { ok: false, field: 'amount', message: error.message };
    throw error;
  }
  try {
    msisdn = normaliseMsisdn(input.msisdn).msisdn;
  } catch (error) {
    if (error instanceof PhoneError) return { ok: false, field: 'msisdn', message: error.message };
    throw error;
  }
  if (!isNetwork(input.network)) return { ok: false, field: 'network', message: NETWORK_REQUIRED_MESSAGE };
  return { ok: true, charge: { pesewas, msisdn, network: input.network, description: plainText(input.description ?? '') } };
}

/** The initialize body, made once per payment: every attempt sends these exact bytes (the service's idempotency). */
export function initializeBody(
  amount: string,
  charge: CheckedCharge,
  ids: { merchantRef: string; till: TillLabel; callbackUrl: string; cashier?: Cashier | null },
): string {
  const { msisdn, network, description } = charge;
  return JSON.stringify({
    amount,
    callbackUrl: ids.callbackUrl,
    customer: { msisdn, network },
    merchantRef: ids.merchantRef,
    ...(description ? { description } : {}),
    metadata: paymentMetadata(ids.till, ids.cashier ?? null, network),
  });
}
