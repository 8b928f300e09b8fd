/**
 * A close no longer writes one z_report_rows row per result it counts (so it stays quick at a long-used
 * till): a Z closed from this version on (rows_kept 'frozen') finds the results it counted by their own
 * z_report_id, and keeps in z_report_rows only the lines it froze (results settled by hand, each with its
 * place in the CSV order: completed_at and reference; then the correction and recount lines, completed_at
 * NULL). Every Z closed before keeps its rows as they are (rows_kept 'each'), so it exports as it did. The
 * indexes follow what the close reads and writes: the closed rows by Z (the export; a close only adds to it,
 * where the index of every row also moved each counted row out of the NULLs), and the rows in no Z by time
 * (the failed ones listed newest first, the earliest start), in place of the failed ones only.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 18,
  name: 'Z rows kept by the results',
  up: `
    ALTER TABLE z_reports ADD COLUMN rows_kept TEXT NOT NULL DEFAULT 'each' CHECK (rows_kept IN ('each', 'frozen'));
    ALTER TABLE z_report_rows ADD COLUMN completed_at INTEGER;
    DROP INDEX transactions_env_z;
    CREATE INDEX transactions_closed ON transactions (environment, z_report_id) WHERE z_report_id IS NOT NULL;
    DROP INDEX transactions_unclosed_failed;
    CREATE INDEX transactions_unclosed_by_time ON transactions (environment, completed_at, reference, status)
      WHERE z_report_id IS NULL;
    `,
};
