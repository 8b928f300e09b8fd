/**
 * The way to the settle-by-hand form from a payment's detail: a button, then the form for a manager or the
 * owner signed in; in a one-person shop (no staff) the owner's PIN first, since History is not behind it.
 */
import { useState } from 'react';
import type { PaymentView } from '../../../shared/ipc/contract';
import { PinEntry } from '../owner/pin-entry';
import { SettleForm } from './settle-form';

export type SettleAccess = 'yes' | 'owner-pin' | 'no';

type Props = { payment: PaymentView; settle: Exclude<SettleAccess, 'no'>; onUnlocked: () => void; onSettled: (p: PaymentView) => void };

export function SettleByHand({ payment, settle, onUnlocked, onSettled }: Props) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <button type="button" className="secondary" onClick={() => setOpen(true)}>
        Settle by hand
      </button>
    );
  }
  if (settle === 'owner-pin')
    return <PinEntry onUnlocked={onUnlocked} why="Settling a payment by hand is for the owner. Enter the PIN to continue." />;
  return (
    <SettleForm
      payment={payment}
      onCancel={() => setOpen(false)}
      onSettled={(settled) => {
        setOpen(false);
        onSettled(settled);
      }}
    />
  );
}
