/**
 * One sale from the keypad to its result. The requestId is made once per sale: a second Enter or
 * click while the first is on its way is ignored, and if the call itself failed the retry carries
 * the same requestId, so the core hands back the same payment instead of starting a second one.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { isFinal } from '../../../shared/domain';
import type { PaymentView } from '../../../shared/ipc/contract';
import type { AmountEntry } from '../../../shared/money';
import { call, errorMessage, onEvent } from '../api';
import type { AccountLookup } from '../charge/use-account-name';
import { checkForm, EMPTY_FORM, newRequestId, type FieldErrors, type SaleForm } from '../charge/sale-form';

export type SalePhase = 'form' | 'waiting' | 'result';

const FIELD_OF: Record<string, keyof FieldErrors> = {
  amount: 'amount',
  msisdn: 'phone',
  phone: 'phone',
  network: 'network',
  description: 'description',
};

export function useSale(onStoppedWaiting: (payment: PaymentView) => void, entry: AmountEntry) {
  const [form, setForm] = useState<SaleForm>(EMPTY_FORM);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [phase, setPhase] = useState<SalePhase>('form');
  const [payment, setPayment] = useState<PaymentView | null>(null);
  const [charging, setCharging] = useState(false);
  // The wallet name of a lookup that was still on its way when the cashier charged (for the waiting screen).
  const [lateName, setLateName] = useState<{ id: string; name: string } | null>(null);
  const requestId = useRef(newRequestId());
  const inFlight = useRef(false);

  const show = useCallback((p: PaymentView) => {
    setPayment(p);
    if (isFinal(p.state)) setPhase('result');
    else if (p.state === 'rejected') {
      setErrors({ form: p.errorMessage ?? 'The payment service refused this payment.' });
      requestId.current = newRequestId();
      setPhase('form');
    } else setPhase('waiting');
  }, []);

  // Follow the payment being waited for: events first, a slow poll as a safety net.
  const watchedId = phase === 'waiting' ? payment?.id : undefined;
  useEffect(() => {
    if (!watchedId) return undefined;
    const off = onEvent('payment:updated', (p) => {
      if (p.id === watchedId) show(p);
    });
    const timer = window.setInterval(() => {
      call('payments:get', { id: watchedId })
        .then((p) => {
          if (p && p.id === watchedId) show(p);
        })
        .catch(() => undefined);
    }, 4000);
    return () => {
      off();
      window.clearInterval(timer);
    };
  }, [watchedId, show]);

  const charge = useCallback(
    async (customerName: string | null, later: Promise<AccountLookup> | null = null): Promise<keyof FieldErrors | null> => {
      if (inFlight.current) return null;
      const checked = checkForm({ ...form, customerName }, entry);
      if (!checked.ok) {
        setErrors(checked.errors);
        return (Object.keys(checked.errors)[0] as keyof FieldErrors | undefined) ?? null;
      }
      inFlight.current = true;
      setCharging(true);
      setErrors({});
      try {
        const answer = await call('payments:charge', { requestId: requestId.current, ...checked.input });
        if (!answer.ok) {
          const field = FIELD_OF[answer.field ?? ''] ?? 'form';
          setErrors({ [field]: answer.message });
          requestId.current = newRequestId();
          return field;
        }
        show(answer.payment);
        const { id } = answer.payment;
        void later?.then((found) => {
          if (found.state === 'found') setLateName({ id, name: found.name });
        });
        return answer.payment.state === 'rejected' ? 'form' : null;
      } catch (error) {
        // Unknown whether it started: keep the requestId so pressing Charge again cannot double-charge.
        setErrors({ form: errorMessage(error) });
        return 'form';
      } finally {
        inFlight.current = false;
        setCharging(false);
      }
    },
    [form, entry, show],
  );

  const stopWaiting = useCallback(async () => {
    if (!payment) return;
    try {
      const p = await call('payments:stopWaiting', { id: payment.id });
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
  }, [payment, onStoppedWaiting, show]);

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
