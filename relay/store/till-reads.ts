/**
 * How far each till token has read its merchant's log, as both stores keep it (table `till_reads`): the
 * highest sequence the relay sent the till, on its stream or in a page, or that the till named as its
 * cursor. Noted in memory on the read paths (a map update, no I/O) and written every few seconds, keeping
 * the higher mark; a failed write keeps its marks for the next one. A mark written late only makes the
 * unread count larger for a while, never smaller: removing a merchant errs on the side of refusing.
 */
import type { TillIdentity } from './relay-store.js';

/** One till token's mark. */
export type TillRead = { merchantId: string; tokenHash: string; label: string; readSeq: number; readAt: string };

export class ReadMarks {
  private pending = new Map<string, TillRead>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The till has read its merchant's log through `seq`. */
  note(till: TillIdentity, seq: number): void {
    if (!(seq > 0)) return;
    const mark = this.pending.get(till.tokenHash);
    if (mark && mark.readSeq >= seq) return;
    const readAt = new Date(this.now()).toISOString();
    this.pending.set(till.tokenHash, { merchantId: till.merchantId, tokenHash: till.tokenHash, label: till.label, readSeq: seq, readAt });
  }

  /** The marks noted since the last take (empty: nothing to write). */
  take(): TillRead[] {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    return batch;
  }

  /** Marks whose write failed, kept for the next one (a higher mark noted meanwhile wins). */
  putBack(batch: readonly TillRead[]): void {
    for (const mark of batch) {
      const newer = this.pending.get(mark.tokenHash);
      if (!newer || newer.readSeq < mark.readSeq) this.pending.set(mark.tokenHash, mark);
    }
  }
}

/** What `merchant remove` would drop unread: the events above the highest mark of any of the merchant's tills. */
export type UnreadEvents = { count: number; readThrough: number; tills: number };

/**
 * The refusal's words: the count, and the flag (or the admin API's parameter) that names it. A suspended
 * merchant's tills cannot read, so letting them read means resuming it for a while.
 */
export function unreadRefusal(merchantId: string, unread: UnreadEvents): string {
  const read =
    unread.tills === 0
      ? 'none of its tills has read any of its log'
      : `the furthest of its ${unread.tills} till(s) has read through sequence ${unread.readThrough}`;
  return (
    `Merchant ${merchantId} has ${unread.count} acknowledged event(s) that no till has read (${read}): removing it would lose them. ` +
    `Resume it until its tills have read them, or remove it anyway with relay merchant remove --id ${merchantId} --discard-unread ${unread.count} ` +
    `(admin API: DELETE /admin/v1/merchants/${merchantId}?discardUnread=${unread.count})`
  );
}
