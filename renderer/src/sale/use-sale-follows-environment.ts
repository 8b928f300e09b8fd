/**
 * A sale never crosses environments: a TEST result must not be on screen in LIVE (nor the reverse). When
 * the environment changes, the sale on screen starts afresh and a payment it showed is watched as a late result.
 */
import { useEffect, useRef } from 'react';
import type { Environment } from '../../../shared/domain';
import type { PaymentView } from '../../../shared/ipc/contract';

type Sale = { payment: PaymentView | null; newSale: () => void };

export function useSaleFollowsEnvironment(environment: Environment | undefined, sale: Sale, watchLate: (payment: PaymentView) => void) {
  const previous = useRef(environment);
  const { payment: salePayment, newSale } = sale;
  useEffect(() => {
    if (previous.current && environment && previous.current !== environment) {
      if (salePayment) watchLate(salePayment);
      newSale();
    }
    previous.current = environment;
  }, [environment, salePayment, newSale, watchLate]);
}
