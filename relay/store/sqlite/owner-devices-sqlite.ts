/** The phones of the owner's links on SQLite (the one merchant): see store/owner-devices.ts. */
import type Database from 'better-sqlite3';
import {
  toDevice,
  type DeviceRow,
  type InvitationClaim,
  type NewInvitation,
  type NewOwnerDevice,
  type OwnerDevice,
  type OwnerDeviceStore,
} from '../owner-devices.js';
import { LINK_COLUMNS, linkOn, toOwnerLink, type LinkRow } from '../owner-link.js';

const DEVICE_COLUMNS = 'id, link_id, name, created_at, last_seen_at, expires_at, revoked_at';

export class SqliteOwnerDevices implements OwnerDeviceStore {
  constructor(
    private readonly db: Database.Database,
    private readonly merchantId: string,
  ) {}

  private link(where: string, value: string) {
    const row = this.db.prepare(`SELECT ${LINK_COLUMNS} FROM owner_links WHERE ${where} = ?`).get(value) as LinkRow | undefined;
    return row && toOwnerLink(row, this.merchantId);
  }

  async claim(tokenHash: string, device: NewOwnerDevice, at: string): Promise<InvitationClaim> {
    const claimed = this.db.transaction(() => {
      const spent = this.db
        .prepare(
          `UPDATE owner_links SET invite_used_at = ? WHERE token_hash = ? AND invite_used_at IS NULL AND invite_expires_at > ?
             AND revoked_at IS NULL RETURNING id`,
        )
        .get(at, tokenHash, at) as { id: string } | undefined;
      if (!spent) return false;
      this.db
        .prepare(
          `INSERT INTO owner_devices (id, link_id, credential_hash, name, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(device.id, spent.id, device.credentialHash, device.name, device.createdAt, device.lastSeenAt, device.expiresAt);
      return true;
    })();
    const link = this.link('token_hash', tokenHash);
    return claimed && link ? { claimed: true, link } : { claimed: false, link };
  }

  async invite(merchantId: string, linkId: string, invitation: NewInvitation, max: number): Promise<'invited' | 'full' | 'unknown'> {
    if (merchantId !== this.merchantId) return 'unknown';
    const { tokenHash, expiresAt, createdByToken, at } = invitation;
    // One transaction, taking the write lock first (as createLink): no link is added or invited between the count and the change.
    const invite = this.db.transaction(() => {
      const link = this.db
        .prepare(`SELECT ${linkOn('?')} AS counted FROM owner_links WHERE id = ? AND revoked_at IS NULL`)
        .get(at, linkId) as { counted: number } | undefined;
      if (!link) return 'unknown';
      // A link counted already stays counted: only one that would count again is held to the others.
      if (!link.counted) {
        const others = this.db.prepare(`SELECT count(*) AS n FROM owner_links WHERE id <> ? AND ${linkOn('?')}`).get(linkId, at) as {
          n: number;
        };
        if (others.n >= max) return 'full';
      }
      this.db
        .prepare('UPDATE owner_links SET token_hash = ?, invite_expires_at = ?, invite_used_at = NULL, created_by_token = ? WHERE id = ?')
        .run(tokenHash, expiresAt, createdByToken, linkId);
      return 'invited';
    });
    return invite.immediate();
  }

  async find(credentialHash: string) {
    const row = this.db.prepare(`SELECT ${DEVICE_COLUMNS} FROM owner_devices WHERE credential_hash = ?`).get(credentialHash) as
      DeviceRow | undefined;
    const link = row && this.link('id', row.link_id);
    return row && link ? { device: toDevice(row), link } : undefined;
  }

  async touch(id: string, at: string, expiresAt: string): Promise<void> {
    this.db.prepare('UPDATE owner_devices SET last_seen_at = ?, expires_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, expiresAt, id);
  }

  async list(merchantId: string): Promise<OwnerDevice[]> {
    if (merchantId !== this.merchantId) return [];
    return (this.db.prepare(`SELECT ${DEVICE_COLUMNS} FROM owner_devices ORDER BY created_at, id`).all() as DeviceRow[]).map(toDevice);
  }

  async revoke(merchantId: string, linkId: string, id: string, at: string): Promise<boolean> {
    if (merchantId !== this.merchantId) return false;
    if (!this.db.prepare('SELECT 1 FROM owner_devices WHERE id = ? AND link_id = ?').get(id, linkId)) return false;
    this.db.prepare('UPDATE owner_devices SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
    return true;
  }

  async offAmong(ids: string[], at: string): Promise<Set<string>> {
    const off = new Set<string>();
    const get = this.db.prepare('SELECT revoked_at, expires_at FROM owner_devices WHERE id = ?');
    for (const id of ids) {
      const row = get.get(id) as { revoked_at: string | null; expires_at: string } | undefined;
      if (!row || row.revoked_at || row.expires_at <= at) off.add(id);
    }
    return off;
  }
}
