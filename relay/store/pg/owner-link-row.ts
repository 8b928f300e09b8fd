/** A link's row on PostgreSQL: the stores' shared row (store/owner-link.ts) with its merchant, read by the links, the phones and the operator's commands. */
import { LINK_COLUMNS as SHARED_COLUMNS, toOwnerLink, type LinkRow as SharedRow, type OwnerLink } from '../owner-link.js';

export type LinkRow = SharedRow & { merchant_id: string };

export const LINK_COLUMNS = `merchant_id, ${SHARED_COLUMNS}`;

export const toLink = (row: LinkRow): OwnerLink => toOwnerLink(row, row.merchant_id);
