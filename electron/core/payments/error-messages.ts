/**
 * What the cashier reads when the payment service says no (spec section 7 and the project's codes in
 * docs/provider-contract.md), or cannot be reached. Each message says what happened to the money and
 * what to do next.
 */
export const UNAUTHENTICATED_MESSAGE =
  "The payment service refused the till's key: it was revoked or is wrong, or the Merchant ID is wrong. The owner must update the keys in Settings. No money was taken.";

export const UNREACHABLE_MESSAGE =
  'The till cannot reach the payment service right now (check the internet connection). The till sends the same payment again until its deadline: the service takes it at most once. If the customer pays another way, stop waiting and choose not to send it.';

export const SERVICE_TROUBLE_MESSAGE =
  'The payment service had a problem. The till sends the same payment again until its deadline: the service takes it at most once.';

export function messageForServiceError(status: number, code: string | null, serviceMessage: string | null): string {
  const detail = serviceMessage ? ` (${serviceMessage.slice(0, 160)})` : '';
  switch (code) {
    case 'UNAUTHENTICATED':
      return UNAUTHENTICATED_MESSAGE;
    case 'VALIDATION_ERROR':
      return `The payment service refused the details${detail}. Check the amount and the number, then try again. No money was taken.`;
    case 'FORBIDDEN':
      return 'The payment service does not allow this merchant account to take payments now (the account may be suspended or not yet approved). The owner should contact the payment service. No money was taken.';
    case 'NOT_FOUND':
      return 'The payment service address looks wrong (the service answered "not found"). The owner should check the Service URL in Settings. No money was taken.';
    case 'ACCOUNT_NOT_FOUND':
      return 'No mobile-money account was found for this number on that network. Check the number and the network.';
    case 'DUPLICATE_REFERENCE':
      return 'The payment service already holds a different payment under this reference, so this one was not sent again. Start a new sale; the customer was not charged twice.';
    case 'PAYLOAD_TOO_LARGE':
      return 'The payment was too large for the payment service to accept (shorten the description). No money was taken.';
    case 'RATE_LIMITED':
      return 'The payment service is busy. Wait a few seconds and charge again. No money was taken.';
    case 'INTERNAL':
      return SERVICE_TROUBLE_MESSAGE;
    default:
      break;
  }
  if (status === 401) return UNAUTHENTICATED_MESSAGE;
  if (status === 403) return messageForServiceError(status, 'FORBIDDEN', null);
  if (status === 404) return messageForServiceError(status, 'NOT_FOUND', null);
  if (status === 429) return messageForServiceError(status, 'RATE_LIMITED', null);
  if (status >= 500) return SERVICE_TROUBLE_MESSAGE;
  return `The payment service refused the payment${detail}. No money was taken; check the details and try again.`;
}

/** A 4xx is a definite "no": the payment is rejected. 5xx and no answer leave it uncertain (retried). */
export function isDefiniteRejection(status: number): boolean {
  return status >= 400 && status < 500;
}

/** Ended before any attempt could have reached the service (none connected, or the cashier stopped first). */
export const NOT_SENT_MESSAGE = 'Never reached the payment service: no prompt went out and the customer was not charged.';

/** Ended with an attempt whose fate is unknown: the service may hold it, and its result lands here if it does. */
export const UNCONFIRMED_MESSAGE =
  'May have reached the payment service: the till got no answer. If the customer approves, the result will show here; the till will not send it again.';
