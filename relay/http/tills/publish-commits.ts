/**
 * What follows each durable commit, before any delivery of it is answered: the metrics (per
 * environment, and per merchant on a multi-merchant relay), the push to the merchant's connected
 * tills, and one log line with the references (never customer data).
 */
import { ENVIRONMENTS, type Environment } from '../../../shared/domain.js';
import type { EventStreams, PublishedEvent } from './event-streams.js';
import type { LogFn, RelayMetrics } from '../../ops/index.js';
import type { CommitReport } from '../../store/index.js';

type PerMerchant = { published: PublishedEvent[]; accepted: string[]; duplicates: string[] };

export function publishCommits(deps: { metrics: RelayMetrics; streams: EventStreams; log: LogFn; perMerchantMetrics: boolean }) {
  const { metrics, streams, log } = deps;
  return (report: CommitReport): void => {
    metrics.commitBatchSize.observe(report.length);
    const acceptedBy: Record<Environment, number> = { test: 0, live: 0 };
    const duplicatesBy: Record<Environment, number> = { test: 0, live: 0 };
    const merchants = new Map<string, PerMerchant>();
    for (const { delivery, outcome } of report) {
      let m = merchants.get(delivery.merchantId);
      if (!m) merchants.set(delivery.merchantId, (m = { published: [], accepted: [], duplicates: [] }));
      if (outcome.kind === 'accepted') {
        acceptedBy[delivery.environment]++;
        m.published.push({ seq: outcome.seq, environment: delivery.environment, json: outcome.json, arrivedAt: delivery.arrivedAt });
        m.accepted.push(delivery.reference);
      } else if (outcome.kind === 'duplicate') {
        duplicatesBy[delivery.environment]++;
        m.duplicates.push(delivery.reference);
      }
    }
    // Counted once per environment per commit rather than per delivery.
    for (const environment of ENVIRONMENTS) {
      if (acceptedBy[environment] > 0) metrics.accepted.inc({ environment }, acceptedBy[environment]);
      if (duplicatesBy[environment] > 0) metrics.duplicates.inc({ environment }, duplicatesBy[environment]);
    }
    for (const [merchantId, m] of merchants) {
      // A merchant's commits are numbered in order, so its sequence numbers are already ascending.
      const first = m.published[0];
      const last = m.published[m.published.length - 1];
      if (deps.perMerchantMetrics && (m.accepted.length || m.duplicates.length))
        metrics.merchantLastDelivery.set(Date.now() / 1000, { merchant: merchantId });
      if (last) {
        if (deps.perMerchantMetrics) {
          metrics.merchantAccepted.inc({ merchant: merchantId }, m.published.length);
          metrics.merchantLastSeq.set(last.seq, { merchant: merchantId });
        } else metrics.lastSeq.set(last.seq);
      }
      streams.publish(merchantId, m.published);
      if (m.accepted.length || m.duplicates.length) {
        log({
          level: 'info',
          msg: 'webhooks_committed',
          ...(deps.perMerchantMetrics ? { merchantId } : {}),
          seqFrom: first?.seq,
          seqTo: last?.seq,
          accepted: m.accepted,
          duplicates: m.duplicates,
        });
      }
    }
  };
}
