/**
 * What follows each durable commit, before any delivery of it is answered: the metrics, the
 * push to connected tills, and one log line with the references (never customer data).
 */
import { ENVIRONMENTS, type Environment } from '../shared/domain.js';
import type { LogFn } from './logger.js';
import type { RelayMetrics } from './metrics.js';
import type { PublishedEvent, SseHub } from './sse-hub.js';
import type { CommitListener } from './store.js';

type PerEnvironment = Record<Environment, number>;

export function publishCommits(deps: { metrics: RelayMetrics; hub: SseHub; log: LogFn }): CommitListener {
  const { metrics, hub, log } = deps;
  return (outcomes, commitSize) => {
    if (commitSize > 0) metrics.commitBatchSize.observe(commitSize);
    const published: PublishedEvent[] = [];
    const accepted: string[] = [];
    const duplicates: string[] = [];
    const acceptedBy: PerEnvironment = { test: 0, live: 0 };
    const duplicatesBy: PerEnvironment = { test: 0, live: 0 };
    for (const { delivery, outcome } of outcomes) {
      if (outcome.kind === 'accepted') {
        acceptedBy[delivery.environment]++;
        published.push({ seq: outcome.seq, environment: delivery.environment, json: outcome.json, arrivedAt: delivery.arrivedAt });
        accepted.push(delivery.reference);
      } else if (outcome.kind === 'duplicate') {
        duplicatesBy[delivery.environment]++;
        duplicates.push(delivery.reference);
      }
    }
    // Counted once per environment per commit rather than per delivery.
    for (const environment of ENVIRONMENTS) {
      if (acceptedBy[environment] > 0) metrics.accepted.inc({ environment }, acceptedBy[environment]);
      if (duplicatesBy[environment] > 0) metrics.duplicates.inc({ environment }, duplicatesBy[environment]);
    }
    // The committer commits in order, so the sequence numbers are already ascending.
    const first = published[0];
    const last = published[published.length - 1];
    if (last) metrics.lastSeq.set(last.seq);
    hub.publish(published);
    if (accepted.length || duplicates.length) {
      log({ level: 'info', msg: 'webhooks_committed', seqFrom: first?.seq, seqTo: last?.seq, accepted, duplicates });
    }
  };
}
