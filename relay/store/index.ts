/**
 * store/: the one store interface. Others may use RelayStore and the types it speaks, and what every store computes alike.
 *
 * What a store cannot do it says through this interface (`tenancy`, `administration()`), so no caller
 * asks which store it holds. It imports no implementation: store/sqlite/ and store/pg/ import it, and
 * whoever opens a store (http/server.ts, the CLI) imports store/sqlite/index.ts or store/pg/index.ts itself.
 */
export {
  CommitError,
  isUnsupported,
  type ApplyOutcome,
  type CommitReport,
  type CommitWaiter,
  type Delivery,
  type EventRow,
  type ManyMerchants,
  type OneMerchant,
  type PrunedRange,
  type SetAside,
  type RelayStore,
  type ServiceKey,
  type StoreKind,
  type StoreListener,
  type TenantDelivery,
  type TillIdentity,
  type Unsupported,
} from './relay-store.js';
export type {
  AdminAuth,
  Administration,
  AuditRow,
  KeySummary,
  ListPage,
  MerchantSummary,
  OwnerLinkRevoked,
  TokenSummary,
  UnreadableKey,
  UsageDay,
} from './administration.js';
export { cursorOf, placeOfCursor } from './list-cursor.js';
export {
  acceptedOutcome,
  canonicalJson,
  differingFields,
  eventJson,
  MAX_JSON_DEPTH,
  nestedDeeperThan,
  newLogId,
  PRUNED_CONFLICT_FIELDS,
  repeatOutcome,
  rowToEvent,
  stateHash,
} from './events.js';
export { isUnstorableText, unstorableField } from './storable.js';
export { ReadMarks, unreadRefusal, type TillRead, type UnreadEvents } from './till-reads.js';
export { ownerSummaryRow, summaryOf, summaryPesewas, zoned, type OwnerSummaryRow } from './owner-summary.js';
export { DEFAULT_RETENTION_DAYS, parseRetentionDays, Retention, type RetentionOptions } from './retention.js';
export {
  addOwnerSums,
  revokedMessage,
  SUMS_COLUMNS,
  zeroOwnerSums,
  type NewOwnerLink,
  type OwnerBreakdownRow,
  type OwnerLink,
  type OwnerLinkRevoker,
  type OwnerSums,
  type OwnerViewStore,
} from './owner-view.js';
export {
  DEVICE_DAYS,
  deviceName,
  INVITATION_MINUTES,
  invitationRefusal,
  type InvitationClaim,
  type NewInvitation,
  type NewOwnerDevice,
  type OwnerDevice,
  type OwnerDeviceStore,
} from './owner-devices.js';
