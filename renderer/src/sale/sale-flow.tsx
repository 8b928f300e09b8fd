/** Front door of sale/ (what other folders may use): SaleFlow, useSale, useSaleFollowsEnvironment, useLateResults, LateNotices. */
/** Charge → Waiting → Result for the current sale, announcing each result to screen readers. */
import { useEffect, useRef } from 'react';
import { ChargeScreen } from '../charge/charge-screen';
import { ghs } from '../format';
import type { AppStatus } from '../hooks/use-app-status';
import type { useSale } from './use-sale';
import { ResultScreen } from './result-screen';
import { WaitingScreen } from './waiting-screen';
import './sale.css';

type Props = {
  sale: ReturnType<typeof useSale>;
  status: AppStatus | null;
  announce: (message: string, urgent?: boolean) => void;
};

export function SaleFlow({ sale, status, announce }: Props) {
  const { phase, payment } = sale;
  const entry = status?.counter.amountEntry ?? 'cedis';
  const selectAmount = useRef(false);
  const announced = useRef<string | null>(null);

  useEffect(() => {
    if (!payment) return;
    const key = `${payment.id}:${payment.state}`;
    if (announced.current === key) return;
    announced.current = key;
    if (payment.state === 'success') announce(`Paid: ${ghs(payment.amount)}. Reference ${payment.reference ?? ''}.`, true);
    else if (payment.state === 'failed') announce(`Not paid: ${ghs(payment.amount)}. The money did not move.`, true);
    else if (payment.state === 'awaiting_customer') announce('Ask the customer to approve on their phone.');
  }, [payment, announce]);

  if (phase === 'waiting' && payment) {
    return (
      <WaitingScreen
        payment={payment}
        walletName={sale.walletName}
        relayState={status?.relayState ?? 'offline'}
        onStop={(send) => void sale.stopWaiting(send)}
      />
    );
  }
  if (phase === 'result' && payment) {
    return (
      <ResultScreen
        payment={payment}
        timeZone={status?.timeZone ?? 'Africa/Accra'}
        printing={status?.printing ?? { printer: 'none', autoPrint: false }}
        entry={entry}
        viewer={status?.signedIn?.id ?? null}
        onNewSale={(amount) => {
          selectAmount.current = false;
          sale.newSale(amount);
        }}
        onTryAgain={() => {
          selectAmount.current = true;
          sale.tryAgain();
        }}
      />
    );
  }
  return (
    <ChargeScreen
      form={sale.form}
      setForm={sale.setForm}
      errors={sale.errors}
      setErrors={sale.setErrors}
      charging={sale.charging}
      charge={sale.charge}
      selectAmount={selectAmount.current}
      entry={entry}
      counter={status?.counter ?? null}
      timeZone={status?.timeZone ?? 'Africa/Accra'}
    />
  );
}
