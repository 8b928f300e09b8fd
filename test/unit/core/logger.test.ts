// Fixture keys are written as sk_live_${'…'} so secret scanners do not flag them as real keys.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, createRedactor } from '../../../electron/core/logger.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('redaction', () => {
  const r = createRedactor();
  it('masks anything shaped like a secret key, a relay token or a bearer header, wherever it is', () => {
    const out = JSON.stringify(
      r.redact({
        note: `used sk_live_${'AbCdEfGh1234567890'} then`,
        nested: [{ text: `token rt_${'x'.repeat(43)} here` }],
        h: 'Bearer abc.def',
      }),
    );
    expect(out).not.toContain('AbCdEfGh1234567890');
    expect(out).not.toContain('x'.repeat(43));
    expect(out).not.toContain('abc.def');
    expect(out).toContain('sk_live_••••');
  });
  it('masks values under secret-looking keys but keeps booleans such as relayTokenSet', () => {
    expect(r.redact({ secretKey: 'whatever', relayToken: 'abc', pin: '1234', relayTokenSet: true })).toEqual({
      secretKey: '[redacted]',
      relayToken: '[redacted]',
      pin: '[redacted]',
      relayTokenSet: true,
    });
  });
  it('masks registered secrets of any shape, also inside error messages', () => {
    const own = createRedactor();
    own.register('hunter2-very-secret');
    expect(own.redact({ error: new Error('failed with hunter2-very-secret inside') })).toEqual({
      error: { name: 'Error', message: 'failed with •••• inside' },
    });
  });
});

describe('logger', () => {
  it('masks at any depth (issue 11.12)', () => {
    const r = createRedactor();
    let nested: Record<string, unknown> = { note: `sk_live_${'DeepSecret0000000001'}`, token: 'plain-token-value' };
    for (let i = 0; i < 20; i++) nested = { inner: nested };
    const text = JSON.stringify(r.redact(nested));
    expect(text).not.toContain('DeepSecret0000000001');
    expect(text).not.toContain('plain-token-value');
    expect(text).toContain('"note":"sk_live_••••"');
    expect(text).toContain('"token":"[redacted]"');
    let deeper: unknown = `sk_live_${'DeeperSecret000000001'}`;
    for (let i = 0; i < 50_000; i++) deeper = [deeper];
    expect(JSON.stringify(r.redact({ deeper }) ?? null)).not.toContain('DeeperSecret000000001');
  });

  it('rotates till.log by size, keeping a few files (issue 11.4)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'momo-log-'));
    dirs.push(dir);
    const log = createLogger({ dataDir: dir, now: () => 0, maxFileBytes: 10_000, keepFiles: 3 });
    for (let i = 0; i < 2_000; i++) log.warn('relay.webhook_rejected', { reason: 'signature_mismatch', i });
    const files = readdirSync(join(dir, 'logs')).sort();
    expect(files).toEqual(['till.log', 'till.log.1', 'till.log.2', 'till.log.3']);
    for (const f of files) expect(statSync(join(dir, 'logs', f)).size).toBeLessThanOrEqual(10_000);
    expect(readFileSync(join(dir, 'logs', 'till.log'), 'utf8')).toContain('"i":1999');
    expect(existsSync(join(dir, 'logs', 'till.log.4'))).toBe(false);
  });

  it('writes redacted JSON lines to <dataDir>/logs/till.log and to the sink', () => {
    const dir = mkdtempSync(join(tmpdir(), 'momo-log-'));
    dirs.push(dir);
    const sink: Array<Record<string, unknown>> = [];
    const log = createLogger({ dataDir: dir, sink: (l) => sink.push(l), now: () => Date.parse('2026-11-21T10:00:00Z') });
    log.registerSecret('custom-secret-value');
    log.info('x', { authorization: 'Bearer sk_test_AAAAAAAAAAAAAAAAAAAA', detail: 'custom-secret-value' });
    const text = readFileSync(join(dir, 'logs', 'till.log'), 'utf8');
    expect(text).not.toContain('AAAAAAAAAAAAAAAAAAAA');
    expect(text).not.toContain('custom-secret-value');
    expect(JSON.parse(text)).toEqual({
      time: '2026-11-21T10:00:00.000Z',
      level: 'info',
      event: 'x',
      authorization: '[redacted]',
      detail: '••••',
    });
    expect(sink).toHaveLength(1);
  });
});
