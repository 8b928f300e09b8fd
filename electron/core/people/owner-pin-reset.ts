/**
 * Resetting a forgotten owner PIN, only from the machine itself (a terminal command, never the UI) and
 * only while the till is closed: the data folder's lock must be free. Staff PINs are kept; the owner's
 * lock-out is cleared; the audit log records the reset.
 */
import { join } from 'node:path';
import { ulid } from 'ulid';
import { lockDataDir } from '../../../shared/data-lock.js';
import { AuditLog } from './audit-log.js';
import { openDatabase } from '../storage/index.js';
import { CoreError } from '../errors.js';
import { hashPin, pinProblem, PIN_TAKEN_MESSAGE, verifyPin } from './pin.js';
import { StaffRepo } from './staff-repo.js';

export async function resetOwnerPin(dataDir: string, pin: string, now: () => number = Date.now): Promise<void> {
  const problem = pinProblem(pin);
  if (problem) throw new CoreError('PIN_INVALID', problem);
  let unlock: () => void;
  try {
    unlock = lockDataDir(dataDir, 'till');
  } catch {
    throw new CoreError('CLOSED', 'The till is open: close it first, then run this command again.');
  }
  const db = openDatabase(join(dataDir, 'till.db'));
  try {
    const staff = new StaffRepo(db);
    const owner = staff.owner();
    for (const row of staff.all()) {
      if (row.id !== owner?.id && (await verifyPin(pin, row.pin_hash))) throw new CoreError('PIN_TAKEN', PIN_TAKEN_MESSAGE);
    }
    const hash = await hashPin(pin);
    db.transaction(() => {
      const at = now();
      if (owner) staff.setPin(owner.id, hash, at);
      else staff.insert({ id: ulid(at), name: 'Owner', role: 'owner', pin_hash: hash, created_at: at });
      if (owner) db.prepare('DELETE FROM pin_attempts WHERE subject = ?').run(owner.id);
      new AuditLog(db, now).record(null, 'owner_pin_set', 'reset from a terminal on this computer');
    })();
  } finally {
    db.close();
    unlock();
  }
}
