/**
 * What a manager typed to settle a payment by hand, checked: the reference (paid only), the fee (optional,
 * paid only; when not given 0.00 is counted, and said so), the note (always, 1–200 characters once
 * trimmed). Each refusal names its field, so the form keeps everything and marks the one to fix.
 */
import { checkCedisEntry, formatGhs } from '../../../shared/money.js';
import { HAND_NOTE_MAX as NOTE_MAX } from '../../../shared/domain.js';
import type { IpcResponse } from '../../../shared/ipc/contract.js';
import { TYPED_REFERENCE } from '../../../shared/wire/transaction.js';
import type { ChannelRequest } from '../dispatcher.js';

export type SettleRequest = ChannelRequest<'payments:settle'>;
export type SettleRefusal = Extract<IpcResponse<'payments:settle'>, { ok: false }>;
export type CheckedSettlement = { outcome: SettleRequest['outcome']; reference: string | null; fee: number | null; note: string };

export const refuse = (message: string, field?: SettleRefusal['field']): SettleRefusal =>
  field ? { ok: false, field, message } : { ok: false, message };

export function checkSettlement(request: SettleRequest, amount: number): CheckedSettlement | SettleRefusal {
  const note = request.note.trim();
  const reference = request.reference?.trim() ?? '';
  const feeText = request.fee?.trim() ?? '';
  if (request.outcome === 'not_paid') {
    if (reference) return refuse('A payment that was not paid has no service reference: clear the reference, or choose Paid.', 'reference');
    if (feeText) return refuse('A payment that was not paid has no fee: clear the fee, or choose Paid.', 'fee');
  } else {
    if (!reference) return refuse('Type the service reference shown on the dashboard for this payment.', 'reference');
    if (!TYPED_REFERENCE.test(reference)) {
      return refuse('A service reference is 4–128 letters, digits and . _ : - (such as TX_01J…), as on the dashboard.', 'reference');
    }
  }
  let fee: number | null = null;
  if (feeText) {
    const entry = checkCedisEntry(feeText);
    if (!entry.ok) return refuse(`Fee: ${entry.error}`, 'fee');
    fee = entry.pesewas;
    if (fee !== null && fee >= amount) return refuse(`The fee must be less than the payment's ${formatGhs(amount)}.`, 'fee');
  }
  if (!note) return refuse('Write a note: what you checked on the dashboard, and why you are settling by hand.', 'note');
  if (note.length > NOTE_MAX) return refuse(`A note is at most ${NOTE_MAX} characters (this one is ${note.length}).`, 'note');
  return { outcome: request.outcome, reference: reference || null, fee, note };
}
