/**
 * The till's local copy of every final transaction of its merchant in an environment (all tills),
 * as the relay delivered them. Insert is idempotent on (environment, reference); the daily rollup
 * used by takings is updated in the same SQL transaction so it can never disagree with the rows.
 */
import { parseAmount } from '../../../shared/money.js';
import { cashierOf, chargedNetworkOf, tillOf } from '../../../shared/wire/payment-metadata.js';
import { plainText, plainTextOrNull } from '../../../shared/outside-text.js';
type Cashier = { staff_id: string | null; staff_name: string | null };
/** The network the payment's echoed metadata named (payment-metadata.ts), stored for another till's TEST result. */
type Charged = { charged_network: string | null };
import type { WireTransaction } from '../../../shared/wire/transaction.js';

import type { Db } from '../storage/index.js';
import { localDate } from '../../../shared/local-date.js';
import type { Environment } from '../../../shared/domain.js';

/** The network test-mode results carry on the wire (spec 6.4) whatever network the customer is on. */
export const SANDBOX_NETWORK = 'SANDBOX';

/**
 * SQL for the network a transaction counts under in takings: the wire network, except that a TEST
 * result ("SANDBOX" on the wire) counts under the network the cashier charged: this till's own payment's, else
 * the one its echoed metadata named (another till's payment; migration 22). `t` is the transactions row; LIVE
 * always keeps the service's own network.
 */
export const TAKINGS_NETWORK_SQL = `CASE WHEN t.environment = 'test' AND t.network = '${SANDBOX_NETWORK}' THEN
    coalesce((SELECT p.network FROM payments p WHERE p.merchant_ref = t.client_reference AND p.environment = t.environment),
      t.charged_network, t.network)
  ELSE t.network END`;

/** merchantRef is `<tillId>.<ULID>`: the till that took a payment is readable from its reference. */
export function tillIdOfMerchantRef(ref: string | null): string {
  const m = /^([A-Za-z0-9]{4,20})\.[0-9A-HJKMNP-TV-Z]{26}$/.exec(ref ?? '');
  return m ? (m[1] as string) : 'other';
}

export type TransactionRow = {
  environment: Environment;
  reference: string;
  client_reference: string | null;
  status: 'SUCCESS' | 'FAILED';
  amount: number;
  fee: number;
  net: number;
  msisdn: string;
  network: string;
  description: string;
  till_id: string;
  completed_at: number;
  local_date: string;
  /** 1: made by a manager's settle by hand (settle-by-hand.ts), not (yet) by the service's result. */
  settled_by_hand: 0 | 1;
};

/** The rollup's staff_key for payments started with nobody signed in (a key column cannot be NULL). */
export const NOBODY = '';

/** What the rollup is keyed and summed by, from a transaction row. */
type RollupSource = Pick<
  TransactionRow,
  'environment' | 'local_date' | 'till_id' | 'network' | 'amount' | 'fee' | 'net' | 'settled_by_hand'
> &
  Cashier & { status: string };

export class TransactionsStore {
  private readonly insertRow;
  private readonly bumpRollup;
  private readonly byReference;
  private readonly byClientReference;
  private readonly chargedNetwork;
  private readonly nameTill;
  private readonly dropEmpty;
  private readonly replaceReopening;
  private readonly replaceKeepingZ;

  constructor(
    private readonly db: Db,
    private timeZone: string,
  ) {
    this.insertRow = db.prepare(
      `INSERT INTO transactions (environment, reference, client_reference, status, amount, fee, net, msisdn, network,
         description, till_id, staff_id, staff_name, completed_at, local_date, relay_seq, received_at, settled_by_hand, charged_network)
       VALUES (@environment, @reference, @client_reference, @status, @amount, @fee, @net, @msisdn, @network,
         @description, @till_id, @staff_id, @staff_name, @completed_at, @local_date, @relay_seq, @received_at, @settled_by_hand,
         @charged_network)
       ON CONFLICT (environment, reference) DO NOTHING`,
    );
    this.bumpRollup = db.prepare(
      `INSERT INTO daily_takings (environment, local_date, till_id, network, staff_key, by_hand, staff_name,
         succeeded, failed, gross, fees, net)
       VALUES (@environment, @local_date, @till_id, @network, @staff_key, @by_hand, @staff_name, @succeeded, @failed, @gross, @fees, @net)
       ON CONFLICT (environment, local_date, till_id, network, staff_key, by_hand) DO UPDATE SET
         staff_name = CASE WHEN excluded.staff_name > coalesce(staff_name, '') THEN excluded.staff_name ELSE staff_name END,
         succeeded = succeeded + excluded.succeeded, failed = failed + excluded.failed,
         gross = gross + excluded.gross, fees = fees + excluded.fees, net = net + excluded.net`,
    );
    // The newest result names the till (results may arrive out of order, e.g. after a relay catch-up).
    this.nameTill = db.prepare(
      `INSERT INTO till_names (till_id, name, seen_at) VALUES (?, ?, ?)
       ON CONFLICT (till_id) DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at WHERE excluded.seen_at >= till_names.seen_at`,
    );
    const replace = (reopen: string) =>
      db.prepare(
        `UPDATE transactions SET reference = @reference, client_reference = @client_reference, status = @status, amount = @amount,
           fee = @fee, net = @net, msisdn = @msisdn, network = @network, description = @description, till_id = @till_id,
           staff_id = @staff_id, staff_name = @staff_name, completed_at = @completed_at, local_date = @local_date,
           relay_seq = @relay_seq, received_at = @received_at, settled_by_hand = @settled_by_hand,
           charged_network = @charged_network${reopen}
         WHERE environment = @environment AND reference = @old_reference`,
      );
    // The next day close (Z report) counts a result the service changed, whatever Z counted the hand's.
    this.replaceReopening = replace(', z_report_id = NULL');
    this.replaceKeepingZ = replace('');
    this.dropEmpty = db.prepare(
      `DELETE FROM daily_takings WHERE environment = @environment AND local_date = @local_date AND till_id = @till_id
         AND network = @network AND staff_key = @staff_key AND by_hand = @by_hand AND succeeded = 0 AND failed = 0`,
    );
    this.chargedNetwork = db.prepare('SELECT network FROM payments WHERE environment = ? AND merchant_ref = ?');
    this.byReference = db.prepare('SELECT * FROM transactions WHERE environment = ? AND reference = ?');
    this.byClientReference = db.prepare('SELECT * FROM transactions WHERE environment = ? AND client_reference = ? LIMIT 1');
  }

  /** Returns true when the transaction was new (false: already known, nothing changed). */
  insert(environment: Environment, tx: WireTransaction, relaySeq: number | null, receivedAt: number): boolean {
    const row = this.rowOf(environment, tx, relaySeq, receivedAt);
    const inserted = this.insertRow.run({ ...row, settled_by_hand: 0 }).changes === 1;
    if (inserted) {
      this.addToRollup({ ...row, settled_by_hand: 0, network: this.takingsNetwork(environment, row) });
      this.nameTillOf(tx, row);
    }
    return inserted;
  }

  /** Only the till its merchantRef names (a name in metadata cannot relabel another till's takings). */
  private nameTillOf(tx: WireTransaction, row: Pick<TransactionRow, 'till_id' | 'completed_at'>): void {
    const till = tillOf(tx.metadata);
    const tillName = till ? plainText(till.name) : '';
    if (till?.id === row.till_id && tillName) this.nameTill.run(till.id, tillName, row.completed_at);
  }

  /** A payment of this till settled by hand: counted like a result (takings, rollup, CSV), marked settled_by_hand. */
  insertByHand(row: Omit<TransactionRow, 'local_date' | 'settled_by_hand'> & Cashier, receivedAt: number): void {
    const full = { ...row, local_date: localDate(row.completed_at, this.timeZone), relay_seq: null, received_at: receivedAt };
    if (this.insertRow.run({ ...full, settled_by_hand: 1, charged_network: null }).changes !== 1) {
      throw new Error(`transaction ${row.reference} already exists`);
    }
    this.addToRollup({ ...full, settled_by_hand: 1, network: this.takingsNetwork(row.environment, row) });
  }

  /**
   * The service's own result for a payment settled by hand, stored under `handReference`: its values replace
   * the hand's in the row and in the rollup. `agrees`: the row stays marked settled by hand (the service
   * confirmed it); otherwise it becomes the service's own row, and a day close counts it again.
   */
  replaceHandRow(
    environment: Environment,
    handReference: string,
    tx: WireTransaction,
    relaySeq: number | null,
    receivedAt: number,
    agrees: boolean,
  ): void {
    const old = this.byReference.get(environment, handReference) as (TransactionRow & Cashier & Charged) | undefined;
    if (!old) {
      this.insert(environment, tx, relaySeq, receivedAt);
      return;
    }
    this.addToRollup({ ...old, network: this.takingsNetwork(environment, old) }, -1);
    const row = this.rowOf(environment, tx, relaySeq, receivedAt);
    (agrees ? this.replaceKeepingZ : this.replaceReopening).run({ ...row, settled_by_hand: agrees ? 1 : 0, old_reference: handReference });
    this.addToRollup({
      ...row,
      settled_by_hand: agrees ? 1 : 0,
      network: this.takingsNetwork(environment, row),
    });
    this.nameTillOf(tx, row);
  }

  private rowOf(environment: Environment, tx: WireTransaction, relaySeq: number | null, receivedAt: number) {
    const completedAt = Date.parse(tx.completedAt);
    // Who started it, from the metadata the service echoed (any till of the merchant, see payment-metadata.ts).
    const cashier = cashierOf(tx.metadata);
    return {
      environment,
      reference: tx.reference,
      client_reference: tx.clientReference,
      status: tx.status,
      amount: parseAmount(tx.amount),
      fee: parseAmount(tx.fee, { allowZero: true }),
      net: parseAmount(tx.net, { allowZero: true }),
      msisdn: tx.customer.msisdn,
      network: tx.customer.network,
      // Outside text: no control or bidi character is stored (shared/outside-text.ts).
      description: plainText(tx.description),
      till_id: tillIdOfMerchantRef(tx.clientReference),
      staff_id: cashier?.id ?? null,
      staff_name: plainTextOrNull(cashier?.name),
      completed_at: completedAt,
      local_date: localDate(completedAt, this.timeZone),
      relay_seq: relaySeq,
      received_at: receivedAt,
      charged_network: chargedNetworkOf(tx.metadata),
    };
  }

  /** The network a transaction counts under in takings (see TAKINGS_NETWORK_SQL, the same rule in SQL). */
  private takingsNetwork(
    environment: Environment,
    { network, client_reference, charged_network }: Pick<TransactionRow, 'network' | 'client_reference'> & Partial<Charged>,
  ): string {
    if (environment !== 'test' || network !== SANDBOX_NETWORK) return network;
    const own = client_reference ? (this.chargedNetwork.get(environment, client_reference) as { network: string } | undefined) : undefined;
    return own?.network ?? charged_network ?? network;
  }

  /**
   * `sign` -1 takes a row back out (a hand settlement the service's result replaces). The rollup is keyed by
   * who started the payment and whether it was settled by hand too, so takings' figures per cashier and the
   * part settled by hand read the rollup's few rows, never the range's transactions.
   */
  private addToRollup(row: RollupSource, sign: 1 | -1 = 1): void {
    const success = row.status === 'SUCCESS';
    const key = {
      environment: row.environment,
      local_date: row.local_date,
      till_id: row.till_id,
      network: row.network,
      staff_key: row.staff_id ?? NOBODY,
      by_hand: row.settled_by_hand,
    };
    this.bumpRollup.run({
      ...key,
      staff_name: row.staff_name,
      succeeded: success ? sign : 0,
      failed: success ? 0 : sign,
      gross: success ? sign * row.amount : 0,
      fees: success ? sign * row.fee : 0,
      net: success ? sign * row.net : 0,
    });
    if (sign < 0) this.dropEmpty.run(key);
  }

  find(environment: Environment, reference: string | null, clientReference: string | null): TransactionRow | null {
    if (reference) {
      const row = this.byReference.get(environment, reference) as TransactionRow | undefined;
      if (row) return row;
    }
    if (clientReference) return (this.byClientReference.get(environment, clientReference) as TransactionRow | undefined) ?? null;
    return null;
  }

  /** The till's time zone changed: recompute every local date and the rollup, in one transaction. */
  setTimeZone(timeZone: string): void {
    if (timeZone === this.timeZone) return;
    this.timeZone = timeZone;
    const rows = this.db.prepare('SELECT rowid AS id, completed_at FROM transactions').all() as Array<{ id: number; completed_at: number }>;
    const update = this.db.prepare('UPDATE transactions SET local_date = ? WHERE rowid = ?');
    this.db.transaction(() => {
      for (const row of rows) update.run(localDate(row.completed_at, timeZone), row.id);
      this.db.exec('DELETE FROM daily_takings');
      this.db.exec(rebuildRollupSql('1'));
    })();
  }
}

/** Rebuild the daily rollup from the transactions matching `where` (SQL over `t`), by takings network. */
export function rebuildRollupSql(where: string): string {
  return `INSERT INTO daily_takings (environment, local_date, till_id, network, staff_key, by_hand, staff_name,
      succeeded, failed, gross, fees, net)
    SELECT environment, local_date, till_id, takings_network, coalesce(staff_id, ''), settled_by_hand, max(staff_name),
      sum(status = 'SUCCESS'), sum(status = 'FAILED'),
      sum(CASE WHEN status = 'SUCCESS' THEN amount ELSE 0 END),
      sum(CASE WHEN status = 'SUCCESS' THEN fee ELSE 0 END),
      sum(CASE WHEN status = 'SUCCESS' THEN net ELSE 0 END)
    FROM (SELECT t.*, ${TAKINGS_NETWORK_SQL} AS takings_network FROM transactions t WHERE ${where})
    GROUP BY environment, local_date, till_id, takings_network, coalesce(staff_id, ''), settled_by_hand`;
}
