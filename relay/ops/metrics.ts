/**
 * Prometheus text-format metrics (exposition format 0.0.4), hand-rolled: counters with labels,
 * gauges and histograms. No personal data ever goes into a label.
 */

type Labels = Record<string, string>;

function labelKey(labels: Labels): string {
  const entries = Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1));
  if (entries.length === 0) return '';
  const escape = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
  return `{${entries.map(([k, v]) => `${k}="${escape(v)}"`).join(',')}}`;
}

class Counter {
  readonly values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'gauge' = 'counter',
  ) {}
  inc(labels: Labels = {}, by = 1): void {
    const k = labelKey(labels);
    this.values.set(k, (this.values.get(k) ?? 0) + by);
  }
  set(value: number, labels: Labels = {}): void {
    this.values.set(labelKey(labels), value);
  }
  get(labels: Labels = {}): number {
    return this.values.get(labelKey(labels)) ?? 0;
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`];
    if (this.values.size === 0 && this.type === 'gauge') lines.push(`${this.name} 0`);
    for (const [k, v] of this.values) lines.push(`${this.name}${k} ${v}`);
    return lines.join('\n');
  }
}

class Histogram {
  private readonly counts: number[];
  private sum = 0;
  private count = 0;
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: number[],
  ) {
    this.counts = buckets.map(() => 0);
  }
  observe(value: number): void {
    this.sum += value;
    this.count++;
    for (let i = 0; i < this.buckets.length; i++) if (value <= (this.buckets[i] as number)) this.counts[i]!++;
  }
  get observations(): number {
    return this.count;
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    this.buckets.forEach((b, i) => lines.push(`${this.name}_bucket{le="${b}"} ${this.counts[i]}`));
    lines.push(`${this.name}_bucket{le="+Inf"} ${this.count}`);
    lines.push(`${this.name}_sum ${this.sum}`);
    lines.push(`${this.name}_count ${this.count}`);
    return lines.join('\n');
  }
}

export class RelayMetrics {
  readonly accepted = new Counter('relay_deliveries_accepted_total', 'Webhook deliveries stored for the first time.');
  readonly duplicates = new Counter(
    'relay_deliveries_duplicate_total',
    'Repeat deliveries of a stored transaction, acknowledged and not stored or pushed again.',
  );
  readonly rejected = new Counter('relay_deliveries_rejected_total', 'Deliveries refused (nothing stored, nothing pushed), by reason.');
  readonly securityAlerts = new Counter(
    'relay_security_alerts_total',
    'Security alerts, by kind (conflicting_repeat: a repeat disagreeing with the stored final state).',
  );
  readonly outOfOrder = new Counter(
    'relay_deliveries_out_of_order_total',
    'Repeat deliveries whose X-Service-Timestamp is older than the latest seen for the reference.',
  );
  readonly staleTimestamps = new Counter(
    'relay_deliveries_stale_timestamp_total',
    'Accepted deliveries whose X-Service-Timestamp is outside the tolerance (flagged; only enforced when signed).',
  );
  readonly commitFailures = new Counter('relay_commit_failures_total', 'Group commits that failed (answered 503).');
  readonly tillAuthFailures = new Counter('relay_till_auth_failures_total', 'Till requests refused for want of a valid token.');
  readonly connectionsShed = new Counter(
    'relay_connections_shed_total',
    'Connections closed at the connection cap: the oldest idle or unfinished one (replaced), or the new one (refused).',
  );
  readonly sseClients = new Counter('relay_sse_clients', 'Connected SSE clients.', 'gauge');
  readonly lastSeq = new Counter('relay_event_log_last_seq', 'Highest sequence number in the event log.', 'gauge');
  readonly merchantAccepted = new Counter(
    'relay_merchant_deliveries_accepted_total',
    'Deliveries stored for the first time, per merchant (multi-merchant relay; accepted by this instance).',
  );
  readonly merchantLastSeq = new Counter(
    'relay_merchant_last_seq',
    'Highest sequence number committed by this instance, per merchant.',
    'gauge',
  );
  readonly merchantStreams = new Counter('relay_merchant_sse_clients', 'Open event streams on this instance, per merchant.', 'gauge');
  readonly unreadableKeys = new Counter(
    'relay_unreadable_keys',
    "Service keys set aside because their sealed secret does not open with this instance's master key (PostgreSQL).",
    'gauge',
  );
  readonly databaseUp = new Counter('relay_database_up', '1 while the store can commit, 0 while its database is unreachable.', 'gauge');
  readonly pushLatency = new Histogram(
    'relay_push_latency_seconds',
    'Time from a webhook request arriving to its event being written to a connected SSE client.',
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  );
  readonly commitBatchSize = new Histogram(
    'relay_commit_batch_size',
    'Deliveries per group commit.',
    [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
  );

  render(): string {
    return (
      [
        this.accepted,
        this.duplicates,
        this.rejected,
        this.securityAlerts,
        this.outOfOrder,
        this.staleTimestamps,
        this.commitFailures,
        this.tillAuthFailures,
        this.connectionsShed,
        this.sseClients,
        this.lastSeq,
        this.merchantAccepted,
        this.merchantLastSeq,
        this.merchantStreams,
        this.databaseUp,
        this.unreadableKeys,
        this.pushLatency,
        this.commitBatchSize,
      ]
        .map((m) => m.render())
        .join('\n') + '\n'
    );
  }
}
