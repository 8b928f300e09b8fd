/**
 * The bytes of webhook bodies still arriving: all clients together may hold maxPendingBodyBytes (the
 * instance's own pool: 503 beyond), one client its share, maxPendingBodyBytesPerClient (never less than one
 * whole body: 429 beyond), so slow bodies from one address cannot fill the pool every merchant needs.
 */
import type { RelayConfig, RelayMetrics } from '../../ops/index.js';
import { PerClient } from '../client-limits.js';
import type { Rejection } from './verify.js';

export class PendingBodies {
  private total = 0;
  private readonly byClient = new PerClient();

  constructor(
    private readonly getConfig: () => RelayConfig,
    private readonly metrics: RelayMetrics,
  ) {}

  /** Counts `bytes` of `client`'s body; or the refusal when that would pass the client's share or the pool. */
  hold(client: string, bytes: number): Rejection | null {
    const { maxPendingBodyBytes, maxPendingBodyBytesPerClient, maxBodyBytes } = this.getConfig();
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
    return null;
  }

  release(client: string, bytes: number): void {
    this.total -= bytes;
    this.byClient.give(client, bytes);
  }
}
