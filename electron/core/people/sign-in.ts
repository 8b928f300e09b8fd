/**
 * Who is at the till. A person signs in with their PIN (which identifies them; choosing their name
 * first is optional), stays signed in while they use the till, and is locked out of the screen after
 * the idle time. Locking keeps their shift open; signing out ends it. With no staff configured the
 * till is `anonymous` (the one-person shop) and the owner's PIN opens the owner screens.
 */
import type { Caller, StaffRole } from '../../../shared/ipc/roles.js';
import type { AuditLog } from './audit-log.js';
import { CoreError } from '../errors.js';
import { lockedMessage, TILL_SUBJECT, type PinGuard } from './pin-guard.js';
import { verifyPin } from './pin.js';
import type { StaffRepo, StaffRow } from './staff-repo.js';

export type Person = { id: string; name: string; role: StaffRole };

/** The longest the idle lock's watch sleeps between looks at the clock (see `watch`). */
const WATCH_EVERY_MS = 2_000;

export const WRONG_PIN_MESSAGE = 'That PIN is not right.';

type Deps = {
  staff: StaffRepo;
  guard: PinGuard;
  audit: AuditLog;
  now: () => number;
  idleMs: () => number;
  /** Someone signed in, locked, signed out or the idle time ran out. */
  onChange: (reason: 'sign-in' | 'lock' | 'sign-out' | 'idle', person: Person | null, previous: Person | null) => void;
};

const toPerson = (row: StaffRow): Person => ({ id: row.id, name: row.name, role: row.role });

export class SignIn {
  private person: Person | null = null;
  private lastActivity = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: Deps) {}

  /** The person signed in now (null once the idle time has run out). */
  current(): Person | null {
    if (this.person && this.deps.now() - this.lastActivity >= this.deps.idleMs()) this.end('idle');
    return this.person;
  }

  /** When the idle lock falls (Unix ms) if nobody uses the till meanwhile; null while nobody is signed in. */
  until(): number | null {
    return this.current() ? this.lastActivity + this.deps.idleMs() : null;
  }

  caller(): Caller {
    const person = this.current();
    if (person) return person.role;
    return this.deps.staff.hasStaff() ? 'locked' : 'anonymous';
  }

  /** Someone is using the till: the idle time starts again. */
  touch(): void {
    if (this.current()) this.lastActivity = this.deps.now();
  }

  /** Checks a PIN (for `staffId` when a name was chosen first) and signs that person in; throws WRONG_PIN or PIN_LOCKED. */
  async signIn(pin: string, staffId?: string): Promise<Person> {
    const { staff, guard, audit } = this.deps;
    const chosen = staffId ? staff.get(staffId) : null;
    if (staffId && (!chosen || chosen.active !== 1)) throw new CoreError('WRONG_PIN', 'That person cannot sign in on this till.');
    let outcome: { value: StaffRow | null; lockedOut: boolean };
    try {
      outcome = chosen
        ? await guard.attempt(chosen.id, async () => ((await verifyPin(pin, chosen.pin_hash)) ? chosen : null))
        : await guard.attempt(TILL_SUBJECT, () => this.match(pin));
    } catch (error) {
      if (error instanceof CoreError) audit.record(chosen && toPerson(chosen), 'pin_refused', error.message);
      throw error;
    }
    if (!outcome.value) {
      audit.record(chosen && toPerson(chosen), outcome.lockedOut ? 'pin_lockout' : 'pin_failed', chosen ? '' : 'no name chosen');
      const message = outcome.lockedOut ? lockedMessage(guard.lockedFor(chosen?.id ?? TILL_SUBJECT)) : WRONG_PIN_MESSAGE;
      throw new CoreError(outcome.lockedOut ? 'PIN_LOCKED' : 'WRONG_PIN', message, 'pin');
    }
    const previous = this.current();
    this.person = toPerson(outcome.value);
    this.lastActivity = this.deps.now();
    audit.record(this.person, 'sign_in', previous && previous.id !== this.person.id ? `after ${previous.name}` : '');
    this.watch();
    this.deps.onChange('sign-in', this.person, previous);
    return this.person;
  }

  /** The screen locks; the person's shift stays open. */
  lock(): void {
    if (this.current()) this.end('lock');
  }

  signOut(): Person | null {
    const person = this.current();
    if (person) this.end('sign-out');
    return person;
  }

  /** Someone's role changed or they were disabled: a signed-in session follows at once. */
  refresh(id: string): void {
    if (this.person?.id !== id) return;
    const row = this.deps.staff.get(id);
    if (!row || row.active !== 1) this.end('lock');
    else this.person = toPerson(row);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** A PIN typed without a name: the first active person it matches, skipping anyone locked out. */
  private async match(pin: string): Promise<StaffRow | null> {
    for (const row of this.deps.staff.active()) {
      if (this.deps.guard.lockedFor(row.id) > 0) continue;
      if (await verifyPin(pin, row.pin_hash)) return row;
    }
    return null;
  }

  private end(reason: 'lock' | 'sign-out' | 'idle'): void {
    const previous = this.person;
    this.person = null;
    this.close();
    this.deps.audit.record(previous, reason === 'sign-out' ? 'sign_out' : 'lock', reason === 'idle' ? 'idle' : '');
    this.deps.onChange(reason, null, previous);
  }

  /**
   * Fires when the idle time runs out, so the screen locks without waiting for the next call. It looks
   * again at least every WATCH_EVERY_MS: a timer counts awake time only, so after a laptop's sleep or a
   * jump of the clock the wall clock may be long past the idle time while the timer still waits.
   */
  private watch(): void {
    this.close();
    const left = this.lastActivity + this.deps.idleMs() - this.deps.now();
    this.timer = setTimeout(() => (this.current() ? this.watch() : undefined), Math.min(Math.max(left, 0) + 50, WATCH_EVERY_MS));
    this.timer.unref?.();
  }
}
