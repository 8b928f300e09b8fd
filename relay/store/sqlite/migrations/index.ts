/**
 * The schema of relay.sqlite (the single-merchant relay's event log), one migration per file
 * (`NNNN-what-it-does.ts`, each exporting one `{ version, name, up }` as `migration`), listed here in order;
 * shared/sqlite.ts applies them and keeps their history. To change the schema, add the next file and list it
 * at the end, with a test in test/unit/relay/store/sqlite/migrations.test.ts; never edit or renumber a
 * shipped one.
 */
import { latestVersion, type Migration } from '../../../../shared/sqlite.js';
import { migration as m0001 } from './0001-event-log.js';
import { migration as m0002 } from './0002-log-identity.js';
import { migration as m0003 } from './0003-one-event-per-environment-and-reference.js';
import { migration as m0004 } from './0004-retention.js';
import { migration as m0005 } from './0005-owner-view.js';
import { migration as m0006 } from './0006-owner-link-revoker.js';
import { migration as m0007 } from './0007-owner-summary-by-committer.js';
import { migration as m0008 } from './0008-drop-events-reference.js';
import { migration as m0009 } from './0009-migration-history.js';
import { migration as m0010 } from './0010-owner-devices.js';
import { migration as m0011 } from './0011-events-set-aside.js';
import { migration as m0012 } from './0012-till-reads.js';
import { migration as m0013 } from './0013-names-as-typed.js';

export const MIGRATIONS: readonly Migration[] = [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009, m0010, m0011, m0012, m0013];

export const SCHEMA_VERSION = latestVersion(MIGRATIONS);
