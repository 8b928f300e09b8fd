/** The phones of the owner's links on PostgreSQL: see store/owner-devices.ts. */
import type pg from 'pg';
import {
  toDevice,
  type DeviceRow,
  type InvitationClaim,
  type NewInvitation,
  type NewOwnerDevice,
  type OwnerDevice,
  type OwnerDeviceStore,
} from '../owner-devices.js';
import { linkOn } from '../owner-link.js';
import { LINK_COLUMNS, toLink, type LinkRow } from './owner-link-row.js';
import { linksOn, type OwnerLinkTurns } from './owner-link-turns.js';

const DEVICE_COLUMNS = 'd.id, d.link_id, d.name, d.created_at, d.last_seen_at, d.expires_at, d.revoked_at';

export class PgOwnerDevices implements OwnerDeviceStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly turns: OwnerLinkTurns,
  ) {}

  async claim(tokenHash: string, device: NewOwnerDevice, at: string): Promise<InvitationClaim> {
    // One statement: the invitation is spent and the device registered together, or neither.
    const { rowCount } = await this.pool.query(
      `WITH spent AS (
         UPDATE owner_links SET invite_used_at = $2
         WHERE token_hash = $1 AND invite_used_at IS NULL AND invite_expires_at > $2 AND revoked_at IS NULL RETURNING id)
       INSERT INTO owner_devices (id, link_id, credential_hash, name, created_at, last_seen_at, expires_at)
       SELECT $3, id, $4, $5, $2, $2, $6 FROM spent`,
      [tokenHash, at, device.id, device.credentialHash, device.name, device.expiresAt],
    );
    const { rows } = await this.pool.query<LinkRow>(`SELECT ${LINK_COLUMNS} FROM owner_links WHERE token_hash = $1`, [tokenHash]);
    const link = rows[0] && toLink(rows[0]);
    return rowCount && link ? { claimed: true, link } : { claimed: false, link };
  }

  async invite(merchantId: string, linkId: string, invitation: NewInvitation, max: number): Promise<'invited' | 'full' | 'unknown'> {
    const { tokenHash, expiresAt, createdByToken, at } = invitation;
    return this.turns.run(merchantId, async (client) => {
      const { rows } = await client.query<{ counted: boolean }>(
        `SELECT ${linkOn('$3')} AS counted FROM owner_links WHERE merchant_id = $1 AND id = $2 AND revoked_at IS NULL`,
        [merchantId, linkId, at],
      );
      const link = rows[0];
      if (!link) return 'unknown' as const;
      // A link counted already stays counted: only one that would count again is held to the others.
      if (!link.counted && (await linksOn(client, merchantId, at, linkId)) >= max) return 'full' as const;
      await client.query(
        `UPDATE owner_links SET token_hash = $3, invite_expires_at = $4, invite_used_at = NULL, created_by_token = $5
         WHERE merchant_id = $1 AND id = $2`,
        [merchantId, linkId, tokenHash, expiresAt, createdByToken],
      );
      return 'invited' as const;
    });
  }

  async find(credentialHash: string) {
    const { rows } = await this.pool.query<DeviceRow>({
      name: 'owner_find_device',
      text: `SELECT ${DEVICE_COLUMNS} FROM owner_devices d WHERE d.credential_hash = $1`,
      values: [credentialHash],
    });
    const row = rows[0];
    if (!row) return undefined;
    const links = await this.pool.query<LinkRow>({
      name: 'owner_device_link',
      text: `SELECT ${LINK_COLUMNS} FROM owner_links WHERE id = $1`,
      values: [row.link_id],
    });
    return links.rows[0] ? { device: toDevice(row), link: toLink(links.rows[0]) } : undefined;
  }

  async touch(id: string, at: string, expiresAt: string): Promise<void> {
    await this.pool.query('UPDATE owner_devices SET last_seen_at = $2, expires_at = $3 WHERE id = $1 AND revoked_at IS NULL', [
      id,
      at,
      expiresAt,
    ]);
  }

  async list(merchantId: string): Promise<OwnerDevice[]> {
    const { rows } = await this.pool.query<DeviceRow>(
      `SELECT ${DEVICE_COLUMNS} FROM owner_devices d JOIN owner_links l ON l.id = d.link_id
       WHERE l.merchant_id = $1 ORDER BY d.created_at, d.id`,
      [merchantId],
    );
    return rows.map(toDevice);
  }

  async revoke(merchantId: string, linkId: string, id: string, at: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE owner_devices d SET revoked_at = coalesce(d.revoked_at, $4) FROM owner_links l
       WHERE l.id = d.link_id AND l.merchant_id = $1 AND d.link_id = $2 AND d.id = $3`,
      [merchantId, linkId, id, at],
    );
    return (rowCount ?? 0) > 0;
  }

  async offAmong(ids: string[], at: string): Promise<Set<string>> {
    const off = new Set<string>();
    if (ids.length === 0) return off;
    const { rows } = await this.pool.query<{ id: string; revoked_at: string | null; expires_at: string }>(
      'SELECT id, revoked_at, expires_at FROM owner_devices WHERE id = ANY($1)',
      [ids],
    );
    const known = new Map(rows.map((r) => [r.id, r]));
    for (const id of ids) {
      const row = known.get(id);
      if (!row || row.revoked_at || row.expires_at <= at) off.add(id);
    }
    return off;
  }
}
