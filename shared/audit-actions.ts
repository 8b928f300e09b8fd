/** What the till's audit log records (zod-free: the renderer lists them in its filter). */
export const AUDIT_ACTIONS = [
  'sign_in',
  'sign_out',
  'lock',
  'pin_failed',
  'pin_lockout',
  'pin_refused',
  'owner_pin_set',
  'staff_added',
  'staff_changed',
  'shift_open',
  'shift_close',
  'day_close',
  'settle_by_hand',
  'alert_acknowledged',
  'environment',
  'settings_changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
