/**
 * A merchant's name, an owner link's label and a phone's name hold none of the characters a name may not
 * hold (shared/characters.ts): migration 5's CHECK missed the zero-width and other format characters
 * (`Alpha\u200BShop`), and the owner's texts had none. A merchant's name is also neither blank nor padded.
 * What the database can't express stays with the code's check (nameProblem): words mixing look-alike scripts
 * (PostgreSQL's regular expressions know no Unicode scripts). PostgreSQL's text can hold neither a NUL nor an
 * unpaired surrogate.
 *
 * Rows written before that break the rule are neutralised, not refused: a name is only shown (the merchant
 * is known by its id), so an upgrade never stops on one, and nothing is lost: each merchant name changed is
 * audited (`merchant.name-neutralised`, by `migration:14`) with the name as it was, its UTF-8 bytes in hex.
 * The owner's texts were already neutralised when received; one from before loses its forbidden characters.
 */
import { pgForbiddenNameClass } from '../../name-characters.js';
import type { PgMigration } from './migrate.js';

const FORBIDDEN = pgForbiddenNameClass();

/** The text with each forbidden character a space, spaces collapsed and trimmed (shared/characters.ts's visible form, minus the escapes). */
const neutralised = (column: string) => `btrim(regexp_replace(regexp_replace(${column}, '${FORBIDDEN}', ' ', 'g'), '\\s+', ' ', 'g'))`;

const NAME_OK = `(name !~ '${FORBIDDEN}' AND name ~ '\\S' AND name !~ '^\\s' AND name !~ '\\s$')`;

export const migration: PgMigration = {
  version: 14,
  name: 'names and labels hold no invisible, control or bidirectional characters',
  up: `
LOCK TABLE merchants, owner_links, owner_devices IN ACCESS EXCLUSIVE MODE;
WITH bad AS (
  SELECT id, name AS before, NULLIF(${neutralised('name')}, '') AS after FROM merchants WHERE name IS NOT NULL AND NOT ${NAME_OK}
), changed AS (
  UPDATE merchants m SET name = bad.after FROM bad WHERE m.id = bad.id RETURNING m.id, bad.before, bad.after
)
INSERT INTO admin_audit (actor, action, merchant_id, target, detail)
  SELECT 'migration:14', 'merchant.name-neutralised', id, id,
    jsonb_build_object('beforeUtf8Hex', encode(convert_to(before, 'UTF8'), 'hex'), 'after', after) FROM changed;
ALTER TABLE merchants DROP CONSTRAINT merchants_name_printable;
ALTER TABLE merchants ADD CONSTRAINT merchants_name_as_typed CHECK (name IS NULL OR ${NAME_OK});
UPDATE owner_links SET label = COALESCE(NULLIF(${neutralised('label')}, ''), '-') WHERE label ~ '${FORBIDDEN}';
ALTER TABLE owner_links ADD CONSTRAINT owner_links_label_printable CHECK (label !~ '${FORBIDDEN}');
UPDATE owner_devices SET name = COALESCE(NULLIF(${neutralised('name')}, ''), '-') WHERE name ~ '${FORBIDDEN}';
ALTER TABLE owner_devices ADD CONSTRAINT owner_devices_name_printable CHECK (name !~ '${FORBIDDEN}');
`,
};
