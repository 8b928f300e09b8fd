/**
 * A charge has a deadline: two more states a payment can end in (not_sent, unconfirmed), the time after which
 * it is never sent (send_until), and whether an attempt may have reached the service (may_have_reached).
 *
 * The state CHECK is part of the table, so the table is rebuilt from its own stored SQL with the new list;
 * the alerts that reference payments are set aside meanwhile (foreign keys stay on inside a migration).
 * Payments left open by the version before get a deadline one minute after they were started: one still
 * unanswered when this runs is therefore never sent again, like one past its deadline after a restart. An
 * attempt already made may have reached the service, unless none was.
 */
import type { Db, Migration } from '../../../../shared/sqlite.js';

const OLD_STATES = "CHECK (state IN ('created','submitting','awaiting_customer','uncertain','rejected','success','failed'))";
const NEW_STATES =
  "CHECK (state IN ('created','submitting','awaiting_customer','uncertain','rejected','success','failed','not_sent','unconfirmed'))";
const OLD_DEADLINE_MS = 60_000;

function up(db: Db): void {
  const table = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'payments'").get() as { sql: string };
  if (!table.sql.includes(OLD_STATES)) throw new Error('the payments table does not have the expected state list');
  const dependents = db
    .prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'payments' AND type IN ('index', 'trigger') AND sql IS NOT NULL")
    .all() as { sql: string }[];
  db.exec(`
    CREATE TEMP TABLE alerts_kept AS SELECT * FROM alerts;
    DELETE FROM alerts;
    ${table.sql.replace('CREATE TABLE payments', 'CREATE TABLE payments_new').replace(OLD_STATES, NEW_STATES)};
    INSERT INTO payments_new SELECT * FROM payments;
    DROP TABLE payments;
    ALTER TABLE payments_new RENAME TO payments;
    ${dependents.map((d) => `${d.sql};`).join('\n')}
    INSERT INTO alerts SELECT * FROM alerts_kept;
    DROP TABLE temp.alerts_kept;
    ALTER TABLE payments ADD COLUMN send_until INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE payments ADD COLUMN may_have_reached INTEGER NOT NULL DEFAULT 0 CHECK (may_have_reached IN (0, 1));
    UPDATE payments SET send_until = created_at + ${OLD_DEADLINE_MS};
    UPDATE payments SET may_have_reached = 1 WHERE attempts > 0 AND state IN ('submitting', 'uncertain', 'awaiting_customer');
  `);
}

export const migration: Migration = { version: 20, name: 'charge deadline', up };
