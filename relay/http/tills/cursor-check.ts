/**
 * Where a resuming till's cursor stands in its merchant's log. Sequence numbers alone cannot tell a
 * restored log from the one the till read: restored from a backup, the log numbers new events again over
 * those the till read, under the same log id. So the till names the event it read at its cursor (its
 * receivedAt); another event there means the log was rewound, and the till must read it again from 0.
 */
import type { RelayReset } from '../../../shared/relay-wire.js';
import type { RelayStore } from '../../store/index.js';

export type CursorStanding = { kind: 'ok' } | { kind: 'forked' } | { kind: 'pruned'; prunedThrough: number };

export async function cursorStanding(
  store: Pick<RelayStore, 'rowsAfter' | 'prunedThrough'>,
  merchantId: string,
  after: number,
  receivedAt: string | undefined,
): Promise<CursorStanding> {
  if (after <= 0) return { kind: 'ok' };
  if (receivedAt !== undefined) {
    const [row] = await store.rowsAfter(merchantId, after - 1, 1);
    if (row?.seq === after && row.received_at !== receivedAt) return { kind: 'forked' };
  }
  const prunedThrough = await store.prunedThrough(merchantId);
  return after < prunedThrough ? { kind: 'pruned', prunedThrough } : { kind: 'ok' };
}

/**
 * What a stream opening at `cursor` says after `hello`: the log's last sequence, and the `reset` to send
 * when it reads on from elsewhere (a cursor ahead of the log is left to `hello`'s lastSeq).
 */
export async function resumeFrom(
  store: Pick<RelayStore, 'rowsAfter' | 'prunedThrough' | 'lastSeq'>,
  merchantId: string,
  logId: string,
  cursor: number,
  receivedAt: string | undefined,
): Promise<{ lastSeq: number; reset?: RelayReset }> {
  const lastSeq = await store.lastSeq(merchantId);
  if (cursor > lastSeq) return { lastSeq };
  const standing = await cursorStanding(store, merchantId, cursor, receivedAt);
  if (standing.kind === 'forked') return { lastSeq, reset: { reason: 'restored', logId, lastSeq, readFrom: 0 } };
  if (standing.kind === 'pruned') {
    const { prunedThrough } = standing;
    return { lastSeq, reset: { reason: 'pruned', logId, lastSeq, prunedThrough, readFrom: prunedThrough } };
  }
  return { lastSeq };
}
