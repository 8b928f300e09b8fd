/** One payment in full, from the history list. */
import type { PaymentView } from '../../../shared/ipc/contract';
import { useRef } from 'react';
import { PaymentStatus } from '../components/payment-status';
import { useFocusOnArrival } from '../hooks/use-focus-on-arrival';
import { dateTime, ghs, networkLabel, phone } from '../format';
import { isPrintable } from '../../../shared/receipt/build-receipt';
import { PaymentPrint } from '../printing/payment-print';
import { HandSettlementDetail } from './hand-settlement-detail';
import { SettleByHand, type SettleAccess } from './settle-by-hand';
import { SettleHint } from './settle-hint';

/** This till, named: its own payments show its name, not its id. */
export type TillNamed = { id: string; name: string };
type Props = {
  payment: PaymentView;
  timeZone: string;
  till: TillNamed;
  /** Who may settle an overdue payment by hand: the one signed in (a manager or the owner), the owner after their PIN (no staff), nobody. */
  settle: SettleAccess;
  /** The owner PIN was entered for a settle by hand (the app reads its status again). */
  onUnlocked: () => void;
  onChanged: (payment: PaymentView) => void;
  onClose: () => void;
};

export function PaymentDetail({ payment, timeZone, till, settle, onUnlocked, onChanged, onClose }: Props) {
  // The focus follows the keyboard user into the detail (the "Open" button they pressed is gone).
  const titleRef = useRef<HTMLHeadingElement>(null);
  useFocusOnArrival(titleRef);
  return (
    <section className="payment-detail" aria-labelledby="detail-title" data-testid="payment-detail">
      <h2 id="detail-title" ref={titleRef} tabIndex={-1}>
        {ghs(payment.amount)} <PaymentStatus state={payment.state} />
      </h2>
      {payment.overdue ? (
        <p className="warning-text" data-testid="detail-overdue">
          No result after 15 minutes, longer than the service keeps trying to send one: its result most likely never reached the relay. Do
          not hand over goods for it. Find it in the service&apos;s dashboard under Deliveries (reference{' '}
          {payment.reference ?? 'not known yet'}) and replay it; the result then lands here by itself.{' '}
          {settle !== 'no'
            ? 'If the dashboard cannot replay it, settle it by hand below with what the dashboard shows.'
            : 'If it cannot be replayed, a manager or the owner can settle it by hand.'}
        </p>
      ) : null}
      <SettleHint payment={payment} settle={settle} timeZone={timeZone} />
      <dl className="detail-list">
        {payment.receiptNo ? (
          <>
            <dt>Receipt</dt>
            <dd data-testid="detail-receipt-no">{payment.receiptNo}</dd>
          </>
        ) : null}
        <dt>Customer</dt>
        <dd>
          {phone(payment.msisdn)} · {networkLabel(payment.network)}
          <NameAfter joiner=" · " name={payment.customerName} />
        </dd>
        <dt>Fee</dt>
        <dd>{ghs(payment.fee)}</dd>
        <dt>Net</dt>
        <dd>{ghs(payment.net)}</dd>
        <dt>Description</dt>
        <dd>{payment.description ? <bdi>{payment.description}</bdi> : '—'}</dd>
        <dt>Reference</dt>
        <dd>{payment.reference ?? '—'}</dd>
        <dt>Till reference</dt>
        <dd>{payment.merchantRef}</dd>
        <dt>Till</dt>
        <dd>{payment.tillId === till.id ? till.name : payment.tillId}</dd>
        <dt>Started</dt>
        <dd>
          {dateTime(payment.createdAt, timeZone)}
          <NameAfter joiner=" by " name={payment.startedBy} />
        </dd>
        <dt>Finished</dt>
        <dd>{dateTime(payment.completedAt, timeZone)}</dd>
        {payment.settledByHand ? <HandSettlementDetail hand={payment.settledByHand} timeZone={timeZone} /> : null}
        {payment.errorMessage ? (
          <>
            <dt>Note</dt>
            <dd>{payment.errorMessage}</dd>
          </>
        ) : null}
      </dl>
      {payment.overdue && settle !== 'no' && !payment.settledByHand ? (
        <SettleByHand payment={payment} settle={settle} onUnlocked={onUnlocked} onSettled={onChanged} />
      ) : null}
      {/* A reprint through the one print path: marked REPRINT with when, on the same printer. */}
      {isPrintable(payment) ? <PaymentPrint payment={payment} reprint /> : null}
      <button type="button" className="secondary" onClick={onClose}>
        Back to the list
      </button>
    </section>
  );
}

/** A name from outside (a customer's, a cashier's) after its joiner, isolated in its own direction; nothing without a name. */
function NameAfter({ joiner, name }: { joiner: string; name: string | null | undefined }) {
  return name ? (
    <>
      {joiner}
      <bdi>{name}</bdi>
    </>
  ) : null;
}
