/** The payments that ended without the service's answer, counted apart from every figure: in a day's report and a shift's. */
import type { ReactNode } from 'react';
import { UNSENT_NAMES, type UnsentTotals } from '../../../shared/ipc/contract';
import { ghs } from '../format';

type Props = {
  /** Whose report: the section's ids and test ids start with it (`day-unsent`, `shift-unsent-not-sent`). */
  name: string;
  unsent: UnsentTotals;
  /** The title's level in its screen. */
  heading: 'h2' | 'h3';
  /** What follows the counts (a day's report lists the latest one by one). */
  children?: ReactNode;
};

export function UnsentCounts({ name, unsent, heading: Heading, children }: Props) {
  const { notSent, unconfirmed } = unsent;
  if (notSent.count + unconfirmed.count === 0) return null;
  return (
    <section className="awaiting" aria-labelledby={`${name}-unsent-title`} data-testid={`${name}-unsent`}>
      <Heading id={`${name}-unsent-title`}>Ended without the service’s answer: not in the figures</Heading>
      <p data-testid={`${name}-unsent-not-sent`}>
        {UNSENT_NAMES.not_sent}: {notSent.count}, {ghs(notSent.amount)}
      </p>
      <p data-testid={`${name}-unsent-unconfirmed`}>
        {UNSENT_NAMES.unconfirmed}: {unconfirmed.count}, {ghs(unconfirmed.amount)}
      </p>
      {children}
    </section>
  );
}
