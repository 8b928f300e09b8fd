/**
 * relay/docs/limits.md, the operator's list of limits, as the relay reads its config: each row's field
 * exists, its variable sets that field, and its default is the relay's; every share a tenant can meet is
 * listed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_ENV_VARS, envOverrides, parseRelayConfig, shareFields } from '../../../../relay/ops/index.js';

const doc = readFileSync('relay/docs/limits.md', 'utf8');
const rows = [...doc.matchAll(/^\| `(\w+)` \/ `(RELAY_\w+)` \| ([^|]+) \|/gm)].map((m) => ({
  field: m[1] as string,
  variable: m[2] as string,
  shown: (m[3] as string).trim(),
}));
const defaults = parseRelayConfig({}, 'defaults', {}, 'postgres') as unknown as Record<string, unknown>;
const UNITS: Record<string, number> = { KiB: 1024, MiB: 1024 * 1024 };

function value(shown: string): number {
  const m = /^([0-9.]+)(?: (KiB|MiB))?$/.exec(shown);
  if (!m) throw new Error(`unreadable default ${shown}`);
  return Number(m[1]) * (m[2] ? (UNITS[m[2]] as number) : 1);
}

describe('relay/docs/limits.md', () => {
  it.each(rows)('$field: its variable sets it and its default is the relay’s', ({ field, variable, shown }) => {
    expect(CONFIG_ENV_VARS[variable as keyof typeof CONFIG_ENV_VARS]).toBe(field);
    expect(envOverrides({ [variable]: '7' })).toEqual({ [field]: 7 });
    expect(value(shown)).toBe(defaults[field]);
  });

  it('lists every share a merchant or a token can meet', () => {
    const listed = rows.map((r) => r.field);
    for (const field of ['maxStreamsPerToken', 'maxStreamsPerMerchant', 'maxReadsInFlightPerToken', 'maxReadsInFlightPerMerchant']) {
      expect(listed).toContain(field);
    }
    // Every share field: a new share cannot be added without its row.
    for (const field of Object.keys(shareFields)) {
      expect(listed).toContain(field);
    }
  });
});
