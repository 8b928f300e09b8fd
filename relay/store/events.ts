/**
 * What every store computes the same way: the event as tills receive it (built from a stored row or a
 * delivery without parsing its transaction), the comparison that tells a duplicate from a conflicting
 * repeat, and a new log identity.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Environment } from '../../shared/domain.js';
import type { RelayEvent } from '../../shared/relay-wire.js';
import type { ApplyOutcome, Delivery, EventRow } from './relay-store.js';

/** The outcome of `d` stored as event `seq`, with the event as tills will receive it. */
export function acceptedOutcome(seq: number, d: Delivery): ApplyOutcome {
  const json = eventJson({
    seq,
    reference: d.reference,
    environment: d.environment,
    key_id: d.keyId,
    received_at: d.receivedAt,
    webhook_created_at: d.webhookCreatedAt,
    transaction_json: d.transactionJson,
  });
  return { kind: 'accepted', seq, json };
}

/**
 * The outcome of `d` repeating stored event `seq` of `environment`, acknowledged and not stored again: out of
 * order when its timestamp is older than the latest seen for the reference (`previousTimestamp`).
 */
export function repeatOutcome(seq: number, environment: Environment, previousTimestamp: number, d: Delivery): ApplyOutcome {
  return { kind: 'duplicate', seq, environment, outOfOrder: d.timestamp < previousTimestamp, previousTimestamp };
}

/** The event as tills receive it (shared/relay-wire.ts), built from a row without parsing its transaction. */
export function eventJson(row: EventRow): string {
  return (
    `{"seq":${row.seq},"environment":${JSON.stringify(row.environment)},` +
    `"receivedAt":${JSON.stringify(row.received_at)},"webhookCreatedAt":${JSON.stringify(row.webhook_created_at)},` +
    `"keyId":${JSON.stringify(row.key_id)},"transaction":${row.transaction_json}}`
  );
}

export function rowToEvent(row: EventRow): RelayEvent {
  return JSON.parse(eventJson(row)) as RelayEvent;
}

type Step = { text: string } | { value: unknown };

/**
 * JSON with object keys sorted, so equal values give equal strings. Built with an explicit stack
 * rather than recursion: a stored transaction may be nested deeper than the call stack allows.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const steps: Step[] = [{ value }];
  while (steps.length > 0) {
    const step = steps.pop() as Step;
    if ('text' in step) {
      out.push(step.text);
      continue;
    }
    const v = step.value;
    if (Array.isArray(v)) {
      out.push('[');
      steps.push({ text: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        steps.push({ value: v[i] });
        if (i > 0) steps.push({ text: ',' });
      }
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined)
        .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
      out.push('{');
      steps.push({ text: '}' });
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i] as [string, unknown];
        steps.push({ value: inner });
        steps.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(key)}:` });
      }
    } else {
      out.push(JSON.stringify(v));
    }
  }
  return out.join('');
}

/** Top-level transaction field names whose values differ (names only: values may be personal data). */
export function differingFields(stored: Record<string, unknown>, incoming: Record<string, unknown>): string[] {
  const names = new Set([...Object.keys(stored), ...Object.keys(incoming)]);
  return [...names].filter((n) => canonicalJson(stored[n]) !== canonicalJson(incoming[n])).sort();
}

/** Deeper JSON than any webhook needs; the limit also keeps parsing and storing off deep recursion. */
export const MAX_JSON_DEPTH = 32;

/** True when the JSON text nests objects and arrays deeper than `max` (a byte scan, strings skipped). */
export function nestedDeeperThan(raw: Buffer, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i];
    if (inString) {
      if (b === 0x5c) i++;
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x7b || b === 0x5b) {
      if (++depth > max) return true;
    } else if (b === 0x7d || b === 0x5d) depth--;
  }
  return false;
}

/** A new log identity: 16 random bytes, base64url (22 characters). */
export function newLogId(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * What a pruned event leaves behind to tell a later repeat from a conflict (store/retention.ts): the
 * SHA-256 of its final state's canonical JSON, hex. Computed the same way when the repeat arrives.
 */
export function stateHash(transactionJson: string): string {
  return createHash('sha256')
    .update(canonicalJson(JSON.parse(transactionJson)), 'utf8')
    .digest('hex');
}

/** A conflicting repeat of a pruned event: its fields are gone, so which ones differ is unknown. */
export const PRUNED_CONFLICT_FIELDS: readonly string[] = ['(event pruned: fields unknown)'];
