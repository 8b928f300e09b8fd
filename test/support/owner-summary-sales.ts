/**
 * The sale the owner's-summary tests (both relay stores, their migrations) sum: at till T1 "Front", by
 * cashier C1 Ama, on MTN, with a GH₵0.10 fee; and the key columns of the owner_hourly row it lands in.
 */

/** A stored transaction's JSON, as the summary reads it from the event log. */
export function summarySaleJson(reference: string, status: string, amount: string, completedAt: string): string {
  return JSON.stringify({
    reference,
    status,
    amount,
    fee: '0.10',
    net: '0.00',
    completedAt,
    customer: { network: 'MTN' },
    metadata: { till: 'T1', tillName: 'Front', cashierId: 'C1', cashier: 'Ama' },
  });
}

/** The hour (since the epoch, UTC) a sale completed at `completedAt` is summed under. */
export const hourOf = (completedAt: string): number => Math.floor(Date.parse(completedAt) / 3_600_000);

/** owner_hourly's key columns for such a sale completed at `completedAt`. */
export function frontAmaRow(completedAt: string) {
  return { hour: hourOf(completedAt), till_id: 'T1', till_name: 'Front', cashier_id: 'C1', cashier_name: 'Ama', network: 'MTN' };
}
