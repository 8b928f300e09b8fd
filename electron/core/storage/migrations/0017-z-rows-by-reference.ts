/**
 * A Z's rows by reference: one row per line of its CSV, in order (seq), naming the transaction it counted and
 * whether that result arrived after an earlier close. Only what could change later is frozen as its CSV line
 * (JSON, day-csv.ts' CsvLine): results settled by hand (the service's own result may replace their figures),
 * the correction and recount lines, and every line of a Z closed before this version (copied from
 * z_reports.lines, which stays as it was). The CSV is built when it is exported, so a close at a long-used
 * till holds no line per row in memory. Two partial indexes serve the sums.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 17,
  name: 'Z rows by reference',
  up: `
    CREATE TABLE z_report_rows (
      z_report_id INTEGER NOT NULL REFERENCES z_reports (id),
      seq INTEGER NOT NULL CHECK (seq > 0),
      reference TEXT NOT NULL,
      late INTEGER NOT NULL CHECK (late IN (0, 1)),
      line TEXT,
      PRIMARY KEY (z_report_id, seq)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX z_report_rows_frozen ON z_report_rows (reference, z_report_id) WHERE line IS NOT NULL;
    CREATE TRIGGER z_report_rows_no_update BEFORE UPDATE ON z_report_rows BEGIN SELECT RAISE(ABORT, 'a Z report never changes'); END;
    CREATE TRIGGER z_report_rows_no_delete BEFORE DELETE ON z_report_rows BEGIN SELECT RAISE(ABORT, 'a Z report never changes'); END;
    -- The results in no Z yet, as an X report or a close sums them (day-sums.ts): a covering index, so the sums
    -- read no table row; and the failed ones, in CSV order, which the report lists. Partial: only rows in no
    -- Z, so they stay small at a till closed daily.
    CREATE INDEX transactions_unclosed ON transactions (environment, staff_id, staff_name, till_id, network, client_reference,
      status, amount, fee, net, settled_by_hand) WHERE z_report_id IS NULL;
    CREATE INDEX transactions_unclosed_failed ON transactions (environment, completed_at, reference)
      WHERE z_report_id IS NULL AND status = 'FAILED';
    INSERT INTO z_report_rows (z_report_id, seq, reference, late, line)
      SELECT z.id, l.key + 1, json_extract(l.value, '$[1]'), json_extract(l.value, '$[12]') IS 'yes', l.value
      FROM z_reports z, json_each(z.lines) l;
    `,
};
