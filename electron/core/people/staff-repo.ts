/** SQL for the people of this till: the owner (at most one) and the staff, with their PIN hashes. */
import type { Db } from '../storage/index.js';

export type StaffRole = 'owner' | 'manager' | 'cashier';

export type StaffRow = {
  id: string;
  name: string;
  role: StaffRole;
  pin_hash: string;
  active: number;
  created_at: number;
  updated_at: number;
};

export class StaffRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO staff (id, name, role, pin_hash, active, created_at, updated_at)
         VALUES (@id, @name, @role, @pin_hash, 1, @created_at, @created_at)`,
      ),
      byId: db.prepare('SELECT * FROM staff WHERE id = ?'),
      owner: db.prepare("SELECT * FROM staff WHERE role = 'owner'"),
      all: db.prepare("SELECT * FROM staff ORDER BY role = 'owner' DESC, active DESC, name COLLATE NOCASE"),
      active: db.prepare('SELECT * FROM staff WHERE active = 1 ORDER BY name COLLATE NOCASE'),
      staffCount: db.prepare("SELECT count(*) AS n FROM staff WHERE active = 1 AND role <> 'owner'"),
      update: db.prepare('UPDATE staff SET name = @name, role = @role, active = @active, updated_at = @updated_at WHERE id = @id'),
      setPin: db.prepare('UPDATE staff SET pin_hash = @pin_hash, updated_at = @updated_at WHERE id = @id'),
    };
  }

  insert(row: Omit<StaffRow, 'active' | 'updated_at'>): void {
    this.stmts.insert.run(row);
  }

  get(id: string): StaffRow | null {
    return (this.stmts.byId.get(id) as StaffRow | undefined) ?? null;
  }

  owner(): StaffRow | null {
    return (this.stmts.owner.get() as StaffRow | undefined) ?? null;
  }

  all(): StaffRow[] {
    return this.stmts.all.all() as StaffRow[];
  }

  /** Everyone who may sign in now (the owner included). */
  active(): StaffRow[] {
    return this.stmts.active.all() as StaffRow[];
  }

  /** True once at least one active person other than the owner exists: the till then asks "Who is selling?". */
  hasStaff(): boolean {
    return (this.stmts.staffCount.get() as { n: number }).n > 0;
  }

  update(id: string, patch: Pick<StaffRow, 'name' | 'role' | 'active'>, now: number): void {
    this.stmts.update.run({ id, ...patch, updated_at: now });
  }

  setPin(id: string, pinHash: string, now: number): void {
    this.stmts.setPin.run({ id, pin_hash: pinHash, updated_at: now });
  }
}
