/** Beside the takings: this till's payments that ended without the service's answer, neither paid nor failed. */
import type { UnsentTotals } from '../../../shared/ipc/contract';
import { ghs } from '../format';

const payments = (n: number) => (n === 1 ? '1 payment' : `${n} payments`);

export function TakingsUnsent({ unsent, testId }: { unsent: UnsentTotals; testId: string }) {
  const { notSent, unconfirmed } = unsent;
  if (notSent.count + unconfirmed.count === 0) return null;
  return (
    <section className="awaiting" aria-labelledby={`${testId}-title`} data-testid={testId}>
      <h2 id={`${testId}-title`}>Ended without the service’s answer: not in the figures</h2>
      {notSent.count ? (
        <p data-testid={`${testId}-not-sent`}>
          Not sent: {payments(notSent.count)}, {ghs(notSent.amount)}. No prompt went out; the customers were not charged for them.
        </p>
      ) : null}
      {unconfirmed.count ? (
        <p data-testid={`${testId}-unconfirmed`}>
          May have reached the service: {payments(unconfirmed.count)}, {ghs(unconfirmed.amount)}. If a customer approved, the result lands
          by itself and is counted then; History lists them.
        </p>
      ) : null}
    </section>
  );
}
