/** The people domain's front door (what other folders may use): staff, PINs and their lock-out, sign-in, the owner PIN's reset, the audit log. */
export { AuditLog } from './audit-log.js';
export type { Actor } from './audit-log.js';
export { checkNewPin } from './new-pin.js';
export { resetOwnerPin } from './owner-pin-reset.js';
export { PinGuard } from './pin-guard.js';
export { hashPin, verifyPin } from './pin.js';
export { PASSIVE_CHANNELS, adoptLegacyOwnerPin, forbiddenMessage } from './sign-in-setup.js';
export { SignIn } from './sign-in.js';
export type { Person } from './sign-in.js';
export { StaffRepo } from './staff-repo.js';
export type { StaffRow } from './staff-repo.js';
