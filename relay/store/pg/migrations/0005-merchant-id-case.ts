/**
 * A merchant id is one id whatever its case (MCH_alpha and MCH_ALPHA cannot both exist), and a name holds no
 * control, separator or bidirectional character (as tenants.ts checks; NOT VALID: rows written before are
 * shown escaped by `merchant list`, not refused). A database that already holds two ids differing only in
 * case stops the upgrade with them named.
 */
import type { PgMigration } from './migrate.js';

export const migration: PgMigration = {
  version: 5,
  name: 'merchant ids unique whatever their case; printable merchant names',
  up: `
DO $$
DECLARE clash text;
BEGIN
  SELECT string_agg(ids, '; ') INTO clash FROM (
    SELECT string_agg(id, ', ' ORDER BY id) AS ids FROM merchants GROUP BY lower(id) HAVING count(*) > 1) c;
  IF clash IS NOT NULL THEN
    RAISE EXCEPTION 'merchant ids differ only in case (%): rename or remove one of each before upgrading', clash;
  END IF;
END $$;
CREATE UNIQUE INDEX merchants_id_lower ON merchants (lower(id));
ALTER TABLE merchants ADD CONSTRAINT merchants_name_printable
  CHECK (name !~ '[\\x01-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069\\u2028\\u2029]') NOT VALID;
`,
};
