/**
 * One sale from the keypad to its result. The requestId is made once per sale: a second Enter or
 * click while the first is on its way is ignored, and if the call itself failed the retry carries
 * the same requestId, so the core hands back the same payment instead of starting a second one.
 */
import { useCallback, useRef, useState } from 'react';
import { isFinal } from '../../../shared/domain';
import type { PaymentView } from '../../../shared/ipc/contract';
import type { AmountEntry } from '../../../shared/money';
import { call } from '../api';
import { EMPTY_FORM, newRequestId, type FieldErrors, type SaleForm } from '../charge/sale-form';
import { useCharge } from '../charge/use-charge';
import { belongsOnWaitingScreen } from './followed';
import { useFollowPayment } from './use-follow-payment';

export type SalePhase = 'form' | 'waiting' | 'result';

export function useSale(onStoppedWaiting: (payment: PaymentView) => void, entry: AmountEntry) {
  const [form, setForm] = useState<SaleForm>(EMPTY_FORM);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [phase, setPhase] = useState<SalePhase>('form');
  const [payment, setPayment] = useState<PaymentView | null>(null);
  const requestId = useRef(newRequestId());

  const show = useCallback((p: PaymentView) => {
    setPayment(p);
    if (isFinal(p.state)) setPhase('result');
    else if (p.state === 'rejected') {
      setErrors({ form: p.errorMessage ?? 'The payment service refused this payment.' });
      requestId.current = newRequestId();
      setPhase('form');
    } else setPhase('waiting');
  }, []);

  // The payment the cashier stopped waiting for: its late updates must not bring the Waiting screen back.
  const stopped = useRef<string | null>(null);
  const follow = useCallback(
    (p: PaymentView) => {
      if (belongsOnWaitingScreen(p, stopped.current)) show(p);
    },
    [show],
  );
  useFollowPayment(phase === 'waiting' ? payment?.id : undefined, follow);
  const { charge, charging, lateName } = useCharge({ form, entry, requestId, show, setErrors });

  const stopWaiting = useCallback(
    async (send?: 'keep' | 'stop') => {
      if (!payment) return;
      stopped.current = payment.id;
      try {
        const p = await call('payments:stopWaiting', send ? { id: payment.id, send } : { id: payment.id });
        onStoppedWaiting(p ?? { ...payment, stoppedWaiting: true });
        if (p && isFinal(p.state)) {
          show(p);
          return;
        }
      } catch {
        onStoppedWaiting({ ...payment, stoppedWaiting: true });
      }
      setForm(EMPTY_FORM);
      setErrors({});
      setPayment(null);
      requestId.current = newRequestId();
      setPhase('form');
    },
    [payment, onStoppedWaiting, show],
  );

  const tryAgain = useCallback(() => {
    requestId.current = newRequestId();
    setErrors({});
    setPayment(null);
    setPhase('form');
  }, []);

  /** A new, empty sale; `amount` is what the cashier already typed on the result screen. */
  const newSale = useCallback((amount = '') => {
    requestId.current = newRequestId();
    setForm({ ...EMPTY_FORM, amount });
    setErrors({});
    setPayment(null);
    setPhase('form');
  }, []);

  const walletName = payment ? (payment.customerName ?? (lateName?.id === payment.id ? lateName.name : null)) : null;

  return { form, walletName, setForm, errors, setErrors, phase, payment, charging, charge, stopWaiting, tryAgain, newSale };
}
