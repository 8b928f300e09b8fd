/**
 * The texts a single shop's relay keeps that people read (an owner link's label, a phone's name, the till
 * label beside a read mark) hold none of the characters a name may not hold (shared/characters.ts:
 * controls and NUL, zero-width and other format characters, bidirectional controls, separators): refused
 * by triggers, SQLite's CHECK on a table that exists (it can't add one). The till labels themselves live in
 * the config file, checked by its pattern. Rows stored before that hold one are neutralised, not refused
 * (each such character a space, trimmed; '-' when nothing is left): they are only shown, and the code
 * already neutralised them when received, so an upgrade never stops on one.
 */
import type Database from 'better-sqlite3';
import type { Migration } from '../../../../shared/sqlite.js';
import { forbiddenNamePattern, sqliteForbiddenNameGlob } from '../../name-characters.js';

const COLUMNS = [
  ['owner_links', 'label'],
  ['owner_devices', 'name'],
  ['till_reads', 'label'],
] as const;

function neutralise(db: Database.Database, table: string, column: string, bad: string): void {
  const forbidden = forbiddenNamePattern();
  const rows = db.prepare(`SELECT rowid AS r, ${column} AS text FROM ${table} WHERE ${bad}`).all() as Array<{ r: number; text: string }>;
  const update = db.prepare(`UPDATE ${table} SET ${column} = ? WHERE rowid = ?`);
  for (const { r, text } of rows) update.run(text.replace(forbidden, ' ').replace(/\s+/g, ' ').trim() || '-', r);
}

export const migration: Migration = {
  version: 13,
  name: 'names and labels hold no invisible, control or bidirectional characters',
  up: (db) => {
    const glob = sqliteForbiddenNameGlob().replaceAll("'", "''");
    for (const [table, column] of COLUMNS) {
      const bad = (row: string) => `(${row}${column} GLOB '${glob}' OR instr(${row}${column}, char(0)) > 0)`;
      neutralise(db, table, column, bad(''));
      for (const [when, event] of [
        ['insert', 'INSERT'],
        ['update', `UPDATE OF ${column}`],
      ] as const) {
        db.exec(`CREATE TRIGGER IF NOT EXISTS ${table}_${column}_printable_${when} BEFORE ${event} ON ${table}
          WHEN ${bad('NEW.')} BEGIN SELECT RAISE(ABORT, '${table}.${column}: no control, invisible or bidirectional characters'); END;`);
      }
    }
  },
};
