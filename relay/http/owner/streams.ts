/**
 * The owner's page's live stream (`GET /v1/owner/stream`, SSE): for one link's merchant and
 * environment only, each new committed result as the phone shows it (`event: payment`, `id: <seq>`),
 * never the raw event. Woken by this instance's commits and by other instances' (PostgreSQL), it
 * reads the committed rows after each page's cursor, so a page that reconnects with Last-Event-ID
 * catches up with exactly what it missed. A link or phone turned off ends its streams with `event: revoked`
 * (at once on this instance; within `checkMs` on another); a suspended merchant's with `event: suspended`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Environment } from '../../../shared/domain.js';
import type { LogFn } from '../../ops/index.js';
import { revokedMessage, type OwnerLink, type OwnerLinkRevoker, type RelayStore } from '../../store/index.js';
import { DEVICE_OFF_MESSAGE, SUSPENDED_MESSAGE, type Access } from './device-gate.js';
import { ownerPayment } from './figures.js';
import { Holdings } from '../fair-share.js';

type Viewer = { res: ServerResponse; link: OwnerLink; deviceId: string; cursor: number };

/** The instance's pool of page streams and each merchant's and link's share of it (relay/ops/shares.ts). */
export type OwnerStreamLimits = { maxOwnerStreams: number; maxOwnerStreamsPerMerchant: number; maxOwnerStreamsPerLink: number };

/** Why a page's stream was refused: the instance's pool is full, or the merchant or the link holds its share. */
export type OwnerStreamRefusal = 'relay_full' | 'merchant_full' | 'link_full';

const PAGE = 200;

export class OwnerStreams {
  private readonly viewers = new Set<Viewer>();
  private readonly byMerchant = new Holdings();
  private readonly byLink = new Holdings();
  private readonly pumping = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private beat = 0;

  constructor(
    private readonly store: RelayStore,
    private readonly options: {
      checkMs: number;
      heartbeatMs: number;
      limits: () => OwnerStreamLimits;
      log: LogFn;
      /** Each merchant's open streams changed (for /metrics). */
      onCount?: (merchantId: string, open: number) => void;
    },
  ) {
    this.timer = setInterval(() => void this.check(), options.checkMs);
    this.timer.unref();
  }

  get size(): number {
    return this.viewers.size;
  }

  /** Merchants some page is watching (for the store's catch-up). */
  merchants(): string[] {
    return [...new Set([...this.viewers].map((v) => v.link.merchantId))];
  }

  /** Opens a page's stream after `after`; or says which limit it met (checked from the merchant's share up, so one merchant never meets the pool). */
  open(req: IncomingMessage, res: ServerResponse, { link, device }: Access, after: number): OwnerStreamRefusal | null {
    const limits = this.options.limits();
    if (this.byLink.of(link.id) >= limits.maxOwnerStreamsPerLink) return 'link_full';
    if (this.byMerchant.of(link.merchantId) >= limits.maxOwnerStreamsPerMerchant) return 'merchant_full';
    if (this.viewers.size >= limits.maxOwnerStreams) return 'relay_full';
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: 2000\n\n`);
    const viewer: Viewer = { res, link, deviceId: device.id, cursor: after };
    this.add(viewer);
    const drop = () => this.remove(viewer);
    req.on('close', drop);
    res.on('error', drop);
    this.wake(link.merchantId, link.environment);
    return null;
  }

  private add(v: Viewer): void {
    this.viewers.add(v);
    this.byLink.add(v.link.id, 1);
    this.options.onCount?.(v.link.merchantId, this.byMerchant.add(v.link.merchantId, 1));
  }

  private remove(v: Viewer): void {
    if (!this.viewers.delete(v)) return;
    this.byLink.add(v.link.id, -1);
    this.options.onCount?.(v.link.merchantId, this.byMerchant.add(v.link.merchantId, -1));
  }

  /** New rows may exist for this merchant (this instance's commit, another's notification, the catch-up). */
  advanced(merchantId: string): void {
    for (const env of ['test', 'live'] as const) this.wake(merchantId, env);
  }

  /** A link turned off here (by the shop owner, at a till): its pages hear it now. */
  revoked(linkId: string, by: OwnerLinkRevoker = 'owner'): void {
    for (const v of this.viewers) if (v.link.id === linkId) this.end(v, by);
  }

  /** A phone turned off here (at a till): its pages hear it now. */
  deviceRevoked(deviceId: string): void {
    for (const v of this.viewers) if (v.deviceId === deviceId) this.end(v, DEVICE_OFF_MESSAGE);
  }

  private end(v: Viewer, by: OwnerLinkRevoker | string, event = 'revoked'): void {
    this.remove(v);
    const message = by === 'owner' || by === 'operator' ? revokedMessage(by) : by;
    v.res.write(`event: ${event}\ndata: ${JSON.stringify({ message })}\n\n`);
    v.res.end();
  }

  private wake(merchantId: string, environment: Environment): void {
    const key = `${merchantId} ${environment}`;
    if (![...this.viewers].some((v) => v.link.merchantId === merchantId && v.link.environment === environment)) return;
    if (this.pumping.has(key)) {
      this.again.add(key);
      return;
    }
    const run = this.pump(merchantId, environment)
      .catch((err: unknown) => this.options.log({ level: 'warn', msg: 'owner_stream_read_failed', error: (err as Error).message }))
      .finally(() => {
        this.pumping.delete(key);
        if (this.again.delete(key)) this.wake(merchantId, environment);
      });
    this.pumping.set(key, run);
  }

  /** Sends every page of (merchant, environment) the committed results after its cursor. */
  private async pump(merchantId: string, environment: Environment): Promise<void> {
    for (;;) {
      const group = [...this.viewers].filter((v) => v.link.merchantId === merchantId && v.link.environment === environment);
      if (group.length === 0) return;
      const after = Math.min(...group.map((v) => v.cursor));
      const rows = await this.store.rowsAfter(merchantId, after, PAGE, environment);
      for (const row of rows) {
        const text = `id: ${row.seq}\nevent: payment\ndata: ${JSON.stringify(ownerPayment(row))}\n\n`;
        for (const v of group) {
          if (row.seq <= v.cursor || !this.viewers.has(v)) continue;
          v.res.write(text);
          v.cursor = row.seq;
        }
      }
      if (rows.length < PAGE) return;
    }
  }

  /**
   * Links and phones turned off on another instance, links whose till token is gone, merchants suspended
   * (their pages say so, and come back once resumed); and a heartbeat so proxies keep the stream open.
   */
  private async check(): Promise<void> {
    const ids = [...new Set([...this.viewers].map((v) => v.link.id))];
    if (ids.length === 0) return;
    try {
      const off = await this.store.ownerView.revokedAmong(ids);
      const phonesOff = await this.store.ownerView.devices.offAmong(
        [...new Set([...this.viewers].map((v) => v.deviceId))],
        new Date().toISOString(),
      );
      for (const v of [...this.viewers]) {
        const by = off.get(v.link.id);
        const maker = v.link.createdByToken ? this.store.findTill(v.link.createdByToken) : undefined;
        if (by) this.end(v, by);
        else if (v.link.createdByToken && !maker) this.end(v, 'operator');
        else if (phonesOff.has(v.deviceId)) this.end(v, DEVICE_OFF_MESSAGE);
        else if (maker?.suspended) this.end(v, SUSPENDED_MESSAGE, 'suspended');
      }
    } catch (err) {
      this.options.log({ level: 'warn', msg: 'owner_link_check_failed', error: (err as Error).message });
    }
    this.beat += this.options.checkMs;
    if (this.beat >= this.options.heartbeatMs) {
      this.beat = 0;
      for (const v of this.viewers) v.res.write(`: ok\n\n`);
    }
  }

  closeAll(): void {
    clearInterval(this.timer);
    for (const v of [...this.viewers]) {
      this.remove(v);
      v.res.end();
    }
  }
}
