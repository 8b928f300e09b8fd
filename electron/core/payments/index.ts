/** The payments domain's front door (what other folders may use): charging: the engine and its state changes, the payments repository, the service client, landing results, the names looked up for a number, the payments a start found left open. */
export { AccountNames } from './account-names.js';
export { UNAUTHENTICATED_MESSAGE, messageForServiceError } from './error-messages.js';
export { handReferenceOf } from './hand-result.js';
export { LeftOpen } from './left-open.js';
export type { EngineDeps } from './payment-engine-deps.js';
export { PaymentEngine } from './payment-engine.js';
export { PaymentsRepo, toPaymentView, toPaymentViewAt } from './payments-repo.js';
export { RECENT_PAID_MS, SimilarPayments } from './similar-payments.js';
export type { SimilarFound } from './similar-payments.js';
export type { PaymentRow } from './payments-repo.js';
export { createServiceClient } from './service-client.js';
export type { ServiceClient, ServiceCredentials } from './service-client.js';
