/**
 * The relay's Prometheus metrics, with prom-client (the ecosystem's client: exposition format, label
 * escaping, histograms) and its default process metrics (CPU, memory, event-loop lag, file
 * descriptors, GC), each relay in its own registry. Every metric also keeps its values in a plain map
 * so that tests and /healthz-style checks read them at once (prom-client's own reads are async).
 *
 * Labels: environment, reason, kind, and on a multi-merchant relay the merchant id (500 merchants ×
 * a few label values is fine). Never a till token, a reference or any personal data.
 */
import { collectDefaultMetrics, Counter as PromCounter, Gauge as PromGauge, Histogram as PromHistogram, Registry } from 'prom-client';

type Labels = Record<string, string>;

function labelKey(labels: Labels | undefined): string {
  if (!labels) return '';
  return Object.entries(labels)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(',');
}

type Definition = { name: string; help: string; labelNames?: string[] };

export class CounterMetric {
  private readonly values = new Map<string, number>();
  private readonly metric: PromCounter;
  constructor(registry: Registry, definition: Definition) {
    this.metric = new PromCounter({ ...definition, labelNames: definition.labelNames ?? [], registers: [registry] });
  }
  inc(labels?: Labels, by = 1): void {
    if (labels) this.metric.inc(labels, by);
    else this.metric.inc(by);
    const key = labelKey(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }
  get(labels?: Labels): number {
    return this.values.get(labelKey(labels)) ?? 0;
  }
}

export class GaugeMetric {
  private readonly values = new Map<string, number>();
  private readonly metric: PromGauge;
  constructor(registry: Registry, definition: Definition) {
    this.metric = new PromGauge({ ...definition, labelNames: definition.labelNames ?? [], registers: [registry] });
  }
  set(value: number, labels?: Labels): void {
    if (labels) this.metric.set(labels, value);
    else this.metric.set(value);
    this.values.set(labelKey(labels), value);
  }
  get(labels?: Labels): number {
    return this.values.get(labelKey(labels)) ?? 0;
  }
  /** Forgets every labelled value (the next set()s say what is there now). */
  reset(): void {
    this.metric.reset();
    this.values.clear();
  }
}

export class HistogramMetric {
  private count = 0;
  private readonly metric: PromHistogram;
  constructor(registry: Registry, definition: Definition & { buckets: number[] }) {
    this.metric = new PromHistogram({ ...definition, labelNames: definition.labelNames ?? [], registers: [registry] });
  }
  observe(value: number, labels?: Labels): void {
    if (labels) this.metric.observe(labels, value);
    else this.metric.observe(value);
    this.count++;
  }
  /** Observations so far, every label together. */
  get observations(): number {
    return this.count;
  }
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** Per merchant, few buckets (500 merchants × 6 series): enough to tell the share pushed within 50 ms. */
const MERCHANT_LATENCY_BUCKETS = [0.01, 0.05, 0.25, 1];

export class RelayMetrics {
  readonly registry = new Registry();
  private readonly counter = (name: string, help: string, labelNames?: string[]) =>
    new CounterMetric(this.registry, { name, help, labelNames });
  private readonly gauge = (name: string, help: string, labelNames?: string[]) =>
    new GaugeMetric(this.registry, { name, help, labelNames });

  readonly accepted = this.counter('relay_deliveries_accepted_total', 'Webhook deliveries stored for the first time.', ['environment']);
  readonly duplicates = this.counter(
    'relay_deliveries_duplicate_total',
    'Repeat deliveries of a stored transaction, acknowledged and not stored or pushed again.',
    ['environment'],
  );
  readonly rejected = this.counter('relay_deliveries_rejected_total', 'Deliveries refused (nothing stored, nothing pushed), by reason.', [
    'reason',
  ]);
  readonly securityAlerts = this.counter(
    'relay_security_alerts_total',
    'Security alerts, by kind (conflicting_repeat: a repeat disagreeing with the stored final state).',
    ['kind'],
  );
  readonly outOfOrder = this.counter(
    'relay_deliveries_out_of_order_total',
    'Repeat deliveries whose X-Service-Timestamp is older than the latest seen for the reference.',
    ['environment'],
  );
  readonly staleTimestamps = this.counter(
    'relay_deliveries_stale_timestamp_total',
    'Accepted deliveries whose X-Service-Timestamp is outside the tolerance (flagged; only enforced when signed).',
    ['environment'],
  );
  readonly commitFailures = this.counter(
    'relay_commit_failures_total',
    "Deliveries whose group commit failed (503 when nothing could commit on the instance, 500 for the delivery's own row).",
  );
  readonly tillAuthFailures = this.counter('relay_till_auth_failures_total', 'Till requests refused for want of a valid token.');
  readonly adminAuthFailures = this.counter(
    'relay_admin_auth_failures_total',
    'Admin API requests refused for their token, by reason: missing, malformed, unknown, revoked, expired.',
    ['reason'],
  );
  readonly connectionsShed = this.counter(
    'relay_connections_shed_total',
    'Connections closed at the connection cap: the oldest idle or unfinished one (replaced), or the new one (refused).',
    ['which'],
  );
  readonly sseClients = this.gauge('relay_sse_clients', 'Connected SSE clients.');
  readonly sseStalledDropped = this.counter(
    'relay_sse_stalled_dropped_total',
    'Event streams ended because their reader took nothing for streamStallSeconds (the till resumes from its cursor).',
  );
  readonly clientLimited = this.counter(
    'relay_client_limited_total',
    'Requests and connections refused or cut off by a per-client limit before authentication, by limit.',
    ['limit'],
  );
  readonly lastSeq = this.gauge('relay_event_log_last_seq', 'Highest sequence number in the event log.');
  readonly databaseUp = this.gauge(
    'relay_database_up',
    '1 while the store can commit, 0 while its database is unreachable (checked every few seconds).',
  );
  readonly merchantAccepted = this.counter(
    'relay_merchant_deliveries_accepted_total',
    'Deliveries stored for the first time, per merchant (multi-merchant relay; accepted by this instance).',
    ['merchant'],
  );
  readonly merchantRejected = this.counter(
    'relay_merchant_deliveries_rejected_total',
    'Deliveries refused after their key named the merchant (multi-merchant relay), by reason: a refusal before that (unknown key, bad signature headers) names no merchant and is counted only in relay_deliveries_rejected_total.',
    ['merchant', 'reason'],
  );
  readonly unreadableKeys = this.gauge(
    'relay_unreadable_keys',
    "Service keys set aside because their sealed secret does not open with this instance's master key (PostgreSQL).",
  );
  readonly masterKeyPrevious = this.gauge(
    'relay_master_key_previous',
    "1 when this instance runs on a previous master key (its own is not the relay's): restart it with the current key file before the previous one is removed (PostgreSQL).",
  );
  readonly merchantCommitFailures = this.counter(
    'relay_merchant_commit_failures_total',
    'Deliveries whose commit failed (503 or 500), per merchant (multi-merchant relay).',
    ['merchant'],
  );
  readonly merchantTillRefusals = this.counter(
    'relay_merchant_till_refusals_total',
    'Requests of a known till token refused, per merchant and reason (a token that matches no till names no merchant: it is counted in relay_till_auth_failures_total).',
    ['merchant', 'reason'],
  );
  readonly merchantLastDelivery = this.gauge(
    'relay_merchant_last_delivery_timestamp_seconds',
    'Unix time of the last delivery committed by this instance (new or repeat), per merchant.',
    ['merchant'],
  );
  readonly merchantLastSeq = this.gauge('relay_merchant_last_seq', 'Highest sequence number committed by this instance, per merchant.', [
    'merchant',
  ]);
  readonly merchantStreams = this.gauge('relay_merchant_sse_clients', 'Open event streams on this instance, per merchant.', ['merchant']);
  readonly merchantReadsInFlight = this.gauge(
    'relay_merchant_till_reads_in_flight',
    'Reads of the log (GET /v1/transactions…) in progress on this instance, per merchant (multi-merchant relay).',
    ['merchant'],
  );
  readonly merchantOwnerStreams = this.gauge('relay_merchant_owner_streams', "Owner's page streams open on this instance, per merchant.", [
    'merchant',
  ]);
  readonly merchantPendingBodyBytes = this.gauge(
    'relay_merchant_pending_body_bytes',
    'Bytes of webhook bodies still arriving on this instance, per merchant (its key named it).',
    ['merchant'],
  );
  readonly merchantOwnerRefusals = this.counter(
    'relay_merchant_owner_refusals_total',
    "Owner's page streams and owner links refused at a share, per merchant and reason (multi-merchant relay).",
    ['merchant', 'reason'],
  );
  readonly readEvents = this.counter(
    'relay_read_events_total',
    "Events read back from the log for tills (pages, and streams reading from the store), counted against each merchant's readEventsPerSecondPerMerchant.",
  );
  readonly merchantReadEvents = this.counter(
    'relay_merchant_read_events_total',
    'Events read back from the log for tills, per merchant (multi-merchant relay).',
    ['merchant'],
  );
  readonly streamsPaced = this.counter(
    'relay_streams_paced_total',
    "Times a till's stream reading back from the log waited for its merchant's readEventsPerSecondPerMerchant to refill.",
  );
  readonly databaseReads = this.gauge(
    'relay_database_reads',
    'PostgreSQL: reads of the log holding a pool connection (state="running", at most maxDatabaseReads) and waiting their merchant\'s turn (state="waiting").',
    ['state'],
  );
  readonly shareRefusals = this.counter(
    'relay_share_refusals_total',
    "Requests refused at a merchant's or a token's share (429, or 409 for the count of owner links), by the limit named in the answer.",
    ['limit'],
  );
  readonly limits = this.gauge(
    'relay_limit',
    "This instance's configured limits (relay/docs/limits.md), by config field: what each share and pool allows.",
    ['limit'],
  );
  readonly pushLatency = new HistogramMetric(this.registry, {
    name: 'relay_push_latency_seconds',
    help: 'Time from a webhook request arriving to its event being written to a connected SSE client, for events this instance committed.',
    buckets: LATENCY_BUCKETS,
  });
  readonly crossInstancePushLatency = new HistogramMetric(this.registry, {
    name: 'relay_push_latency_cross_instance_seconds',
    help:
      'Time from a webhook request arriving on another instance (its stored receivedAt) to its event being written to an SSE client ' +
      'on this one, for live events committed elsewhere and announced by PostgreSQL NOTIFY (instances’ clocks kept by NTP).',
    buckets: LATENCY_BUCKETS,
  });
  readonly merchantPushLatency = new HistogramMetric(this.registry, {
    name: 'relay_merchant_push_latency_seconds',
    help: 'Push lag per merchant (multi-merchant relay): from the delivery arriving, on any instance, to its event written to a till here.',
    labelNames: ['merchant'],
    buckets: MERCHANT_LATENCY_BUCKETS,
  });
  readonly commitBatchSize = new HistogramMetric(this.registry, {
    name: 'relay_commit_batch_size',
    help: 'Deliveries per group commit.',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text (Prometheus text format 0.0.4). */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}
