/**
 * What the receiver reports about a committed delivery beyond its answer: a failed commit, a repeat
 * out of order, a repeat that disagrees with the stored final state. Each counted (per merchant too on
 * a multi-merchant relay) and logged with the merchant and the request it belongs to.
 */
import type { ApplyOutcome, Delivery } from '../../store/index.js';
import type { LogFn, RelayMetrics, WarningSummary } from '../../ops/index.js';

/** What the reports need of the receiver's dependencies. */
type ReportDeps = { metrics: RelayMetrics; warnings: WarningSummary; log: LogFn; perMerchantMetrics?: boolean };

export type OutcomeContext = { merchantId: string | undefined; requestId: string };

/**
 * Counted per delivery; logged like the other repeated warnings: during an outage every delivery
 * fails the same way, and one line per error per interval (with a count) says as much.
 */
export function reportCommitFailure(deps: ReportDeps, context: OutcomeContext, delivery: Delivery, err: Error | null): void {
  const { metrics, warnings } = deps;
  metrics.commitFailures.inc();
  if (context.merchantId !== undefined && deps.perMerchantMetrics) metrics.merchantCommitFailures.inc({ merchant: context.merchantId });
  const error = (err?.message ?? 'no outcome').slice(0, 200);
  warnings.report('error', 'commit_failed', error, { ...context, reference: delivery.reference });
}

export function reportOutOfOrder(deps: ReportDeps, context: OutcomeContext, delivery: Delivery, latestTimestamp: number): void {
  deps.metrics.outOfOrder.inc({ environment: delivery.environment });
  const { reference, timestamp } = delivery;
  deps.log({ level: 'warn', msg: 'webhook_out_of_order', ...context, reference, timestamp, latestTimestamp });
}

export function reportConflict(
  deps: ReportDeps,
  context: OutcomeContext,
  delivery: Delivery,
  outcome: Extract<ApplyOutcome, { kind: 'conflict' }>,
): void {
  const { metrics, log } = deps;
  metrics.rejected.inc({ reason: 'conflicting_repeat' });
  if (context.merchantId !== undefined && deps.perMerchantMetrics) {
    metrics.merchantRejected.inc({ merchant: context.merchantId, reason: 'conflicting_repeat' });
  }
  metrics.securityAlerts.inc({ kind: 'conflicting_repeat' });
  log({
    level: 'alert',
    msg: 'security_alert',
    kind: 'conflicting_repeat',
    ...context,
    reference: delivery.reference,
    keyId: delivery.keyId,
    environment: delivery.environment,
    storedEnvironment: outcome.storedEnvironment,
    storedSeq: outcome.seq,
    differingFields: outcome.fields,
  });
}
