/**
 * Merchants' ids and names as outside input, against a real PostgreSQL: an id is one
 * id whatever its case, and a name cannot carry what a terminal would obey or what reorders text.
 */
import pg from 'pg';
import { expect, it } from 'vitest';
import { addMerchant, createToken, listMerchants, listTokens, migratePg, openPgPool } from '../../../../../relay/store/pg/index.js';
import { describePg, usePgCluster } from '../../../../support/pg-cluster.js';

describePg('relay on PostgreSQL: merchant ids and names', () => {
  const cluster = usePgCluster();

  it('refuses a second merchant whose id differs only in case, in the CLI check and in the database', async () => {
    const pool = await openPgPool(await cluster().createDatabase(), 2);
    try {
      await addMerchant(pool, 'MCH_alpha');
      await expect(addMerchant(pool, 'MCH_ALPHA')).rejects.toThrow(/Merchant MCH_alpha already exists.*only in case/);
      await expect(addMerchant(pool, 'MCH_alpha')).rejects.toThrow(/^Merchant MCH_alpha already exists$/);
      // Written around the CLI, the database itself refuses it.
      await expect(pool.query("INSERT INTO merchants (id, log_id) VALUES ('MCH_Alpha', 'x')")).rejects.toThrow(/merchants_id_lower/);
      expect((await listMerchants(pool)).map((m) => m.id)).toEqual(['MCH_alpha']);
    } finally {
      await pool.end();
    }
  });

  it('refuses control and bidirectional characters in a name; letters of any script and joiners pass', async () => {
    const pool = await openPgPool(await cluster().createDatabase(), 2);
    try {
      const bad = [
        'Ama\u001b[2J Stores',
        'Ama\u0007',
        'Ama\u009b31m',
        'Evil\u202eserotS',
        'Ama\u2066x\u2069',
        'Ama\u200fStores',
        'Ama\u2028Stores',
        'A\nB',
      ];
      for (const [i, name] of bad.entries()) {
        await expect(addMerchant(pool, `MCH_bad${i}`, name), JSON.stringify(name)).rejects.toThrow(/--name: must not hold control/);
        // The database refuses it too.
        await expect(
          pool.query('INSERT INTO merchants (id, name, log_id) VALUES ($1, $2, $3)', [`MCH_raw${i}`, name, 'x']),
        ).rejects.toThrow(/merchants_name_as_typed/);
      }
      // What the database can express of the later rule: invisible and format characters, blank and padded names.
      for (const [i, name] of ['Alpha\u200bShop', 'Alpha\u2060Shop', 'Ama\u00adStores', 'Ama\ufeff', '   ', ' Ama'].entries()) {
        await expect(
          pool.query('INSERT INTO merchants (id, name, log_id) VALUES ($1, $2, $3)', [`MCH_rawer${i}`, name, 'x']),
          JSON.stringify(name),
        ).rejects.toThrow(/merchants_name_as_typed/);
      }
      for (const [i, name] of ['Ama Stores', 'Àkwàaba Shop', 'Ɔkɔmfo Anɔkye Ltd', 'Family 👨\u200d👩\u200d👧'].entries()) {
        await addMerchant(pool, `MCH_good${i}`, name);
      }
      // Look-alike, blank and padded names, and blank till labels: refused with what is wrong, nothing written.
      for (const name of ['Alpha\u200bShop', 'Alpha\u2060Shop']) {
        await expect(addMerchant(pool, 'MCH_zw', name), JSON.stringify(name)).rejects.toThrow(/--name: must not hold control, invisible/);
      }
      await expect(addMerchant(pool, 'MCH_cyr', '\u0410lpha Shop')).rejects.toThrow(
        /--name: must not mix Latin, Cyrillic or Greek letters/,
      );
      await expect(addMerchant(pool, 'MCH_blank', '   ')).rejects.toThrow(/--name: must not be blank/);
      await expect(addMerchant(pool, 'MCH_pad', 'Ama Stores ')).rejects.toThrow(/--name: must not start or end with a space/);
      await expect(addMerchant(pool, 'MCH_half', 'Ama \ud800')).rejects.toThrow(/--name: must not hold an unpaired surrogate/);
      await addMerchant(pool, 'MCH_good4', 'Магазин Ама');
      for (const label of ['   ', ' front']) await expect(createToken(pool, 'MCH_good0', label)).rejects.toThrow(/--label: must not/);
      expect((await listTokens(pool, 'MCH_good0')).length).toBe(0);
      expect((await listMerchants(pool)).map((m) => m.id)).toEqual(['MCH_good0', 'MCH_good1', 'MCH_good2', 'MCH_good3', 'MCH_good4']);
    } finally {
      await pool.end();
    }
  });

  it('upgrading: a name written before the check is neutralised by migration 14 and audited as it was; ids clashing in case stop the upgrade, named', async () => {
    const url = await cluster().createDatabase();
    const client = new pg.Client(url);
    await client.connect();
    try {
      await migratePg(client, 3);
      const old = 'Old\u001b]0;pwned\u0007 Shop\u202e';
      await client.query("INSERT INTO merchants (id, name, log_id) VALUES ('MCH_old', $1, 'x')", [old]);
      await migratePg(client, 13);
      // Names migration 5's check did not cover, and the later rule's blank and padded ones.
      const later = ['Alpha\u200bShop', '  ', ' Ama Stores ', 'Fine Shop'];
      for (const [i, name] of later.entries()) {
        await client.query('INSERT INTO merchants (id, name, log_id) VALUES ($1, $2, $3)', [`MCH_later${i}`, name, 'x']);
      }
      // Kept as written while migration 5's check was NOT VALID; opening the store migrates.
      expect((await client.query("SELECT name FROM merchants WHERE id = 'MCH_old'")).rows[0].name).toBe(old);
      const pool = await openPgPool(url, 1);
      try {
        // Neutralised, not refused: each forbidden character a space, trimmed; a blank name none. The fine one untouched.
        expect((await listMerchants(pool)).map((m) => [m.id, m.name])).toEqual([
          ['MCH_later0', 'Alpha Shop'],
          ['MCH_later1', null],
          ['MCH_later2', 'Ama Stores'],
          ['MCH_later3', 'Fine Shop'],
          ['MCH_old', 'Old ]0;pwned Shop'],
        ]);
        // Nothing lost: the audit keeps each name as it was, byte for byte.
        const audit = await client.query(
          "SELECT merchant_id, actor, detail FROM admin_audit WHERE action = 'merchant.name-neutralised' ORDER BY merchant_id",
        );
        expect(audit.rows.map((r: { merchant_id: string }) => r.merchant_id)).toEqual([
          'MCH_later0',
          'MCH_later1',
          'MCH_later2',
          'MCH_old',
        ]);
        for (const row of audit.rows as Array<{ merchant_id: string; actor: string; detail: { beforeUtf8Hex: string } }>) {
          const before = Buffer.from(row.detail.beforeUtf8Hex, 'hex').toString('utf8');
          expect(before).toBe(row.merchant_id === 'MCH_old' ? old : later[Number(row.merchant_id.slice(-1))]);
          expect(row.actor).toBe('migration:14');
        }
      } finally {
        await pool.end();
      }
    } finally {
      await client.end();
    }

    const clashing = new pg.Client(await cluster().createDatabase());
    await clashing.connect();
    try {
      await migratePg(clashing, 3);
      await clashing.query("INSERT INTO merchants (id, log_id) VALUES ('MCH_beta', 'x'), ('MCH_BETA', 'y'), ('MCH_gamma', 'z')");
      await expect(migratePg(clashing)).rejects.toThrow(/merchant ids differ only in case \(MCH_BETA, MCH_beta\)/);
      // Nothing of the upgrade was applied: the database stays at version 3.
      const { rows } = await clashing.query('SELECT max(version) AS v FROM relay_schema_migrations');
      expect(rows[0].v).toBe(3);
    } finally {
      await clashing.end();
    }
  });
});
