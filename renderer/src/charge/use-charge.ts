/**
 * Sends the sale's charge: once at a time, with the sale's requestId (a call that failed keeps it, so
 * pressing Charge again cannot double-charge), and a wallet name that arrives after the charge kept for
 * the waiting screen.
 */
import { useCallback, useRef, useState, type MutableRefObject } from 'react';
import type { PaymentView } from '../../../shared/ipc/contract';
import type { AmountEntry } from '../../../shared/money';
import { call, errorMessage } from '../api';
import type { AccountLookup } from './use-account-name';
import { checkForm, newRequestId, type FieldErrors, type SaleForm } from './sale-form';

const FIELD_OF: Record<string, keyof FieldErrors> = {
  amount: 'amount',
  msisdn: 'phone',
  phone: 'phone',
  network: 'network',
  description: 'description',
};

type ChargeDeps = {
  form: SaleForm;
  entry: AmountEntry;
  requestId: MutableRefObject<string>;
  show: (p: PaymentView) => void;
  setErrors: (errors: FieldErrors) => void;
};

export function useCharge({ form, entry, requestId, show, setErrors }: ChargeDeps) {
  const [charging, setCharging] = useState(false);
  // The wallet name of a lookup that was still on its way when the cashier charged (for the waiting screen).
  const [lateName, setLateName] = useState<{ id: string; name: string } | null>(null);
  const inFlight = useRef(false);

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
    [form, entry, show, requestId, setErrors],
  );

  return { charge, charging, lateName };
}
