/** The checks a new PIN passes before it is hashed and stored: its digits, then that nobody else has it. */
import { CoreError } from '../errors.js';
import { pinProblem, PIN_TAKEN_MESSAGE, verifyPin } from './pin.js';
import type { StaffRepo } from './staff-repo.js';

/** A new PIN: its digits, then every other person's hash (inactive people too: they may come back). */
export async function checkNewPin(staff: StaffRepo, pin: string, exceptId?: string): Promise<void> {
  const problem = pinProblem(pin);
  if (problem) throw new CoreError('PIN_INVALID', problem, 'pin');
  for (const row of staff.all()) {
    if (row.id !== exceptId && (await verifyPin(pin, row.pin_hash))) throw new CoreError('PIN_TAKEN', PIN_TAKEN_MESSAGE, 'pin');
  }
}
