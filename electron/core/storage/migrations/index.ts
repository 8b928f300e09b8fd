/**
 * The till database's schema, one migration per file (`NNNN-what-it-does.ts`, each exporting one
 * `{ version, name, up }` as `migration`), listed here in order; shared/sqlite.ts applies them and keeps
 * their history. To change the schema, add the next file and list it at the end, with a test in
 * test/unit/core/storage/; never edit or renumber a shipped one. Every table is STRICT; money is INTEGER
 * pesewas; times are Unix ms.
 */
import { latestVersion, type Migration } from '../../../../shared/sqlite.js';
import { migration as m0001 } from './0001-payments-and-relay-cursor.js';
import { migration as m0002 } from './0002-transactions-and-daily-takings.js';
import { migration as m0003 } from './0003-payment-counts.js';
import { migration as m0004 } from './0004-test-takings-by-charged-network.js';
import { migration as m0005 } from './0005-merchant-ref-index.js';
import { migration as m0006 } from './0006-relay-log-id.js';
import { migration as m0007 } from './0007-people-and-audit-log.js';
import { migration as m0008 } from './0008-payment-attribution-and-shifts.js';
import { migration as m0009 } from './0009-till-names.js';
import { migration as m0010 } from './0010-settle-by-hand-and-alerts.js';
import { migration as m0011 } from './0011-z-reports.js';
import { migration as m0012 } from './0012-results-settled-by-hand-index.js';
import { migration as m0013 } from './0013-payments-settled-by-hand-index.js';
import { migration as m0014 } from './0014-daily-takings-by-cashier.js';
import { migration as m0015 } from './0015-receipt-numbers.js';
import { migration as m0016 } from './0016-who-stopped-waiting.js';
import { migration as m0017 } from './0017-z-rows-by-reference.js';
import { migration as m0018 } from './0018-z-rows-kept-by-results.js';
import { migration as m0019 } from './0019-migration-history.js';
import { migration as m0020 } from './0020-charge-deadline.js';
import { migration as m0021 } from './0021-relay-cursor-mark.js';
import { migration as m0022 } from './0022-charged-network.js';

export const MIGRATIONS: readonly Migration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0011,
  m0012,
  m0013,
  m0014,
  m0015,
  m0016,
  m0017,
  m0018,
  m0019,
  m0020,
  m0021,
  m0022,
];

export const SCHEMA_VERSION = latestVersion(MIGRATIONS);
