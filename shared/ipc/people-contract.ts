/** The people part of the IPC contract (spread into `ipcContract`): sign-in, staff, the owner PIN, the audit log. */
import { z } from 'zod';
import { environmentSchema } from '../domain-schemas.js';
import { AUDIT_ACTIONS, type AuditAction } from '../audit-actions.js';
import { STAFF_ROLES } from './roles.js';
import { isoDate, ok } from './wire-schemas.js';
import { paymentViewSchema } from './payment-contract.js';
import { NO_UNSENT, takingsTotalsSchema, unsentTotalsSchema } from './takings-contract.js';
import { printResultSchema } from './receipt-contract.js';

/** The core checks a new PIN's digits itself (too short, all one digit, taken) and says which. */
const pinSchema = z.string().max(16);

export const staffRoleSchema = z.enum(STAFF_ROLES);
export const personSchema = z.object({ id: z.string(), name: z.string(), role: staffRoleSchema });
export type PersonView = z.infer<typeof personSchema>;
export const staffMemberSchema = personSchema.extend({ active: z.boolean(), lockedForSeconds: z.number().int() });
export type StaffMember = z.infer<typeof staffMemberSchema>;
const staffNameSchema = z.string().trim().min(1, 'Enter a name').max(40, 'A name is at most 40 characters');

export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type { AuditAction };
export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  action: auditActionSchema,
  detail: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
const auditQuerySchema = z
  .object({
    action: auditActionSchema.optional(),
    actorId: z.string().max(64).optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
  })
  .strict();

/**
 * A shift's figures: this till's payments started in it, by network; those still awaiting a result apart, and
 * those that ended without the service's answer (not sent, may have reached it) counted apart from every total.
 */
export const shiftReportSchema = z.object({
  id: z.string(),
  staffId: z.string(),
  staffName: z.string(),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  closedBy: z.string().nullable(),
  /** The figures' environment: LIVE when the shift took any LIVE payment, else TEST. */
  environment: environmentSchema,
  /** The shift's payments in the other environment (the till was switched during it): in none of these figures. */
  otherEnvironment: z.number().int(),
  totals: takingsTotalsSchema,
  byNetwork: z.array(takingsTotalsSchema.extend({ network: z.string() })),
  pending: z.array(paymentViewSchema),
  /** Absent in the reports of shifts closed before they were counted: none then. */
  unsent: unsentTotalsSchema.default(NO_UNSENT),
});
export type ShiftReport = z.infer<typeof shiftReportSchema>;
export const shiftSummarySchema = z.object({
  id: z.string(),
  staffId: z.string(),
  staffName: z.string(),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  environment: environmentSchema,
  /** Its figures: as stored at the close, or as of now while it is open. */
  count: z.number().int(),
  net: takingsTotalsSchema.shape.net,
  pending: z.number().int(),
});
export type ShiftSummary = z.infer<typeof shiftSummarySchema>;

export const peopleChannels = {
  'session:people': {
    request: z.object({}).strict(),
    response: z.object({ people: z.array(personSchema) }),
  },
  'session:signIn': {
    request: z.object({ pin: z.string().max(16), staffId: z.string().max(64).optional() }).strict(),
    response: z.object({ person: personSchema }),
  },
  'session:lock': { request: z.object({}).strict(), response: ok },
  'session:signOut': { request: z.object({}).strict(), response: ok },
  'session:touch': { request: z.object({}).strict(), response: ok },
  'staff:list': {
    request: z.object({}).strict(),
    response: z.object({ staff: z.array(staffMemberSchema), ownerSet: z.boolean() }),
  },
  'staff:add': {
    request: z.object({ name: staffNameSchema, role: z.enum(['manager', 'cashier']), pin: pinSchema }).strict(),
    response: staffMemberSchema,
  },
  'staff:update': {
    request: z
      .object({
        id: z.string().max(64),
        name: staffNameSchema,
        role: staffRoleSchema,
        active: z.boolean(),
        /** Omitted or empty: keep the PIN. */
        pin: pinSchema.optional(),
      })
      .strict(),
    response: staffMemberSchema,
  },
  /** The signed-in person's open shift as of now (null: none open). */
  'shifts:current': { request: z.object({}).strict(), response: shiftReportSchema.nullable() },
  /** Past and open shifts, newest first: a cashier sees their own, a manager or the owner everyone's or one person's. */
  'shifts:list': {
    request: z.object({ staffId: z.string().max(64).optional() }).strict(),
    response: z.object({ shifts: z.array(shiftSummarySchema) }),
  },
  'shifts:get': { request: z.object({ id: z.string().max(64) }).strict(), response: shiftReportSchema },
  /** Closes a shift and stores its report (a cashier: their own; a manager or the owner: any). */
  'shifts:close': { request: z.object({ id: z.string().max(64) }).strict(), response: shiftReportSchema },
  /** A shift's report on the chosen printer (a cashier: their own), as of now while it is open. */
  'shifts:print': { request: z.object({ id: z.string().max(64) }).strict(), response: printResultSchema },
  'audit:list': { request: auditQuerySchema, response: z.object({ entries: z.array(auditEntrySchema) }) },
  'audit:exportCsv': { request: auditQuerySchema, response: z.object({ filename: z.string(), csv: z.string() }) },
  'owner:setPin': {
    request: z.object({ pin: pinSchema, currentPin: pinSchema.optional() }).strict(),
    response: ok,
  },
  'owner:unlock': {
    request: z.object({ pin: z.string().max(16) }).strict(),
    response: z.object({ ok: z.boolean(), message: z.string().optional() }),
  },
  'owner:lock': { request: z.object({}).strict(), response: ok },
} as const;
