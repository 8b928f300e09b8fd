/**
 * The bytes of webhook bodies still arriving: all clients together may hold maxPendingBodyBytes (the
 * instance's own pool: 503 beyond); one client its share, maxPendingBodyBytesPerClient, and one merchant
 * (named by the delivery's key) its share, maxPendingBodyBytesPerMerchant (each never less than one whole
 * body: 429 beyond). The shares are checked first, so slow bodies from one address or for one merchant
 * cannot fill the pool every merchant needs.
 */
import type { RelayConfig, RelayMetrics } from '../../ops/index.js';
import { PerClient } from '../client-limits.js';
import { Holdings } from '../fair-share.js';
import type { Rejection } from './verify.js';

export class PendingBodies {
  private total = 0;
  private readonly byClient = new PerClient();
  private readonly byMerchant = new Holdings();

  constructor(
    private readonly getConfig: () => RelayConfig,
    private readonly metrics: RelayMetrics,
  ) {}

  /** Counts `bytes` of `client`'s body for `merchant`; or the refusal when that would pass a share or the pool. */
  hold(client: string, merchant: string, bytes: number): Rejection | null {
    const { maxPendingBodyBytes, maxPendingBodyBytesPerClient, maxPendingBodyBytesPerMerchant, maxBodyBytes } = this.getConfig();
    const merchantShare = Math.max(maxPendingBodyBytesPerMerchant, maxBodyBytes);
    // A share as large as the pool is no share: the pool's own answer (503) then says what is full.
    if (merchantShare < maxPendingBodyBytes && this.byMerchant.of(merchant) + bytes > merchantShare) {
      this.metrics.shareRefusals.inc({ limit: 'maxPendingBodyBytesPerMerchant' });
      const message = `This merchant's deliveries hold too many bodies still arriving (maxPendingBodyBytesPerMerchant ${merchantShare}); retry later`;
      return { status: 429, reason: 'merchant_pending_bodies_full', message, retryAfterSeconds: 5 };
    }
    const share = Math.max(maxPendingBodyBytesPerClient, maxBodyBytes);
    if (!this.byClient.take(client, bytes, share)) {
      this.metrics.clientLimited.inc({ limit: 'maxPendingBodyBytesPerClient' });
      const message = `Too many bodies pending from this client (over ${share} bytes, maxPendingBodyBytesPerClient); retry later`;
      return { status: 429, reason: 'client_pending_bodies_full', message };
    }
    if (this.total + bytes > maxPendingBodyBytes) {
      this.byClient.give(client, bytes);
      const message = `Too many bodies pending (over ${maxPendingBodyBytes} bytes in all); retry later`;
      return { status: 503, reason: 'pending_bodies_full', message };
    }
    this.total += bytes;
    this.count(merchant, bytes);
    return null;
  }

  release(client: string, merchant: string, bytes: number): void {
    this.total -= bytes;
    this.byClient.give(client, bytes);
    if (bytes !== 0) this.count(merchant, -bytes);
  }

  private count(merchant: string, bytes: number): void {
    this.metrics.merchantPendingBodyBytes.set(this.byMerchant.add(merchant, bytes), { merchant });
  }
}
