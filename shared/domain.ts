/**
 * The project's one vocabulary: environments, payment states and their named sets, networks. The till,
 * the relay, the sandbox, the IPC contract and the renderer all take these words from here. No zod here, so
 * the renderer can use them without bundling it: their schemas are in domain-schemas.ts.
 */

/** TEST runs on sandbox keys (`pk_test_`/`sk_test_`, no real money); LIVE moves real money. */
export const ENVIRONMENTS = ['test', 'live'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/**
 * A till payment's life:
 *
 *   created -> submitting -> awaiting_customer -> success | failed
 *                 |  \-> rejected   (the service answered 4xx to the first attempt: nothing was created)
 *                 \-> uncertain     (time-out, broken connection, 5xx: it may or may not have reached the service)
 *
 * A payment the service has not acknowledged (created, submitting, uncertain) is sent only until its deadline
 * or until the cashier says "stop"; then it ends in one of two named states and is never sent again:
 *   not_sent     no attempt could have reached the service (none connected, or all were refused): no prompt went out
 *   unconfirmed  an attempt may have reached it and no answer came: a result from the relay still lands on it
 */
export const PAYMENT_STATES = [
  'created',
  'submitting',
  'awaiting_customer',
  'uncertain',
  'rejected',
  'success',
  'failed',
  'not_sent',
  'unconfirmed',
] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** The service's result arrived: the payment never changes again. */
export const FINAL_STATES = ['success', 'failed'] as const satisfies readonly PaymentState[];
/** Still on its way to a result: counted apart from takings, flagged when overdue, the cashier may stop waiting. */
export const OPEN_STATES = ['created', 'submitting', 'awaiting_customer', 'uncertain'] as const satisfies readonly PaymentState[];
/** Initialize may be sent (again) for it, with the same merchantRef and body bytes. */
export const RESENDABLE_STATES = ['created', 'submitting', 'uncertain'] as const satisfies readonly PaymentState[];
/** Sending ended before the service acknowledged it (its deadline passed, or the cashier said stop): never sent again. */
export const UNSENT_END_STATES = ['not_sent', 'unconfirmed'] as const satisfies readonly PaymentState[];
/** Being sent from the till right now: one at a time per till and environment. */
export const SENDING_STATES = ['created', 'submitting'] as const satisfies readonly PaymentState[];
/** Without the service's result (open or rejected): a result from the relay still lands on it. */
export const NOT_FINAL_STATES = PAYMENT_STATES.filter((state) => !(FINAL_STATES as readonly PaymentState[]).includes(state));

const member = (set: readonly PaymentState[]) => (state: PaymentState) => set.includes(state);
export const isFinal = member(FINAL_STATES);
export const isOpen = member(OPEN_STATES);
export const isResendable = member(RESENDABLE_STATES);
export const isUnsentEnd = member(UNSENT_END_STATES);

/** What a manager may record for a payment settled by hand, and the longest note they may give. */
export const HAND_OUTCOMES = ['paid', 'not_paid'] as const;
export type HandOutcome = (typeof HAND_OUTCOMES)[number];
export const HAND_NOTE_MAX = 200;

/** The mobile-money networks a customer can be charged on. */
export const NETWORKS = ['MTN', 'TELECEL', 'AIRTELTIGO'] as const;
export type Network = (typeof NETWORKS)[number];
export const NETWORK_REQUIRED_MESSAGE = 'Choose the network: MTN, Telecel or AirtelTigo.';

export function isNetwork(value: string): value is Network {
  return (NETWORKS as readonly string[]).includes(value);
}

/** The networks the service names on the wire: the real ones in LIVE, "SANDBOX" for TEST keys. */
export const WIRE_NETWORKS = [...NETWORKS, 'SANDBOX'] as const;
