/**
 * The customer's side of a test-mode payment, chosen by the MSISDN's last two digits (README table).
 * Delays are simulated milliseconds, before the time scale.
 */
export type FailureReason = 'DECLINED' | 'TIMEOUT' | 'INSUFFICIENT_FUNDS' | 'NETWORK_REJECTED';
export type Outcome =
  | 'AUTHORISE'
  | 'DECLINE'
  | 'TIMEOUT'
  | 'INSUFFICIENT_FUNDS'
  | 'NETWORK_REJECTED'
  | 'AUTHORISE_REPORTED_THRICE'
  /** Authorised, but the webhook is held, never sent until replayed by hand (pawaPay's "no callback" number). */
  | 'AUTHORISE_NO_CALLBACK'
  /** Live keys: a tester authorises or declines by hand; otherwise the prompt times out. */
  | 'MANUAL';

export const DEFAULT_PROMPT_DELAY_MS = 2_000;
export const SLOW_PROMPT_DELAY_MS = 30_000;
export const NETWORK_REJECT_DELAY_MS = 500;
/** How many times the network reports the same success for suffix 05. */
export const REPEATED_REPORTS = 3;
/** Simulated milliseconds between the repeated reports. */
export const REPEAT_GAP_MS = 250;

export const TEST_OUTCOME_TABLE: Record<string, { outcome: Outcome; description: string }> = {
  '01': { outcome: 'DECLINE', description: 'the customer declines (FAILED after ~2 s)' },
  '02': { outcome: 'TIMEOUT', description: 'the prompt times out (FAILED after the prompt time-out, default 60 s)' },
  '03': { outcome: 'INSUFFICIENT_FUNDS', description: 'insufficient funds (FAILED after ~2 s)' },
  '04': { outcome: 'NETWORK_REJECTED', description: 'the network rejects the prompt (FAILED after ~0.5 s)' },
  '05': { outcome: 'AUTHORISE_REPORTED_THRICE', description: 'the network reports the same success three times (one SUCCESS webhook)' },
  '06': { outcome: 'AUTHORISE', description: 'authorised after 30 s (SUCCESS)' },
  '07': {
    outcome: 'AUTHORISE_NO_CALLBACK',
    description: 'authorised after ~2 s (SUCCESS), but its webhook is never sent until replayed from the dashboard',
  },
};

/** The outcome of a test-mode prompt and after how many simulated milliseconds it happens. */
export function testOutcomeFor(msisdn: string, promptTimeoutMs: number): { outcome: Outcome; delayMs: number } {
  const suffix = msisdn.slice(-2);
  const entry = TEST_OUTCOME_TABLE[suffix];
  if (!entry) return { outcome: 'AUTHORISE', delayMs: DEFAULT_PROMPT_DELAY_MS };
  switch (entry.outcome) {
    case 'TIMEOUT':
      return { outcome: 'TIMEOUT', delayMs: promptTimeoutMs };
    case 'NETWORK_REJECTED':
      return { outcome: 'NETWORK_REJECTED', delayMs: NETWORK_REJECT_DELAY_MS };
    case 'AUTHORISE':
      return { outcome: 'AUTHORISE', delayMs: suffix === '06' ? SLOW_PROMPT_DELAY_MS : DEFAULT_PROMPT_DELAY_MS };
    default:
      return { outcome: entry.outcome, delayMs: DEFAULT_PROMPT_DELAY_MS };
  }
}

/** The final state an outcome leads to. */
export function resultOf(outcome: Exclude<Outcome, 'MANUAL'>): { status: 'SUCCESS' } | { status: 'FAILED'; reason: FailureReason } {
  switch (outcome) {
    case 'AUTHORISE':
    case 'AUTHORISE_REPORTED_THRICE':
    case 'AUTHORISE_NO_CALLBACK':
      return { status: 'SUCCESS' };
    case 'DECLINE':
      return { status: 'FAILED', reason: 'DECLINED' };
    case 'TIMEOUT':
      return { status: 'FAILED', reason: 'TIMEOUT' };
    case 'INSUFFICIENT_FUNDS':
      return { status: 'FAILED', reason: 'INSUFFICIENT_FUNDS' };
    case 'NETWORK_REJECTED':
      return { status: 'FAILED', reason: 'NETWORK_REJECTED' };
  }
}
