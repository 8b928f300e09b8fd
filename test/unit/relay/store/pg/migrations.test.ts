/** The relay's PostgreSQL migrations folder against its index (the migrations themselves: test/integration/relay/store/pg/pg-migrations.test.ts). */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from '../../../../../relay/store/pg/index.js';
import { expectFolderListed } from '../../../../support/migrations.js';

it('lists every file of its migrations folder, in order, one version each', async () => {
  await expectFolderListed(fileURLToPath(new URL('../../../../../relay/store/pg/migrations', import.meta.url)), PG_MIGRATIONS, [
    'index.ts',
    'migrate.ts',
  ]);
  expect(PG_SCHEMA_VERSION).toBe(PG_MIGRATIONS.length);
});
