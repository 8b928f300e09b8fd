import { describe, expect, it } from 'vitest';
import { environmentSchema } from '../../../shared/domain-schemas.js';
import {
  RELAY_TOKEN,
  relayEventSchema,
  relayPageSchema,
  relayHelloSchema,
  relayCursorAheadSchema,
  CURSOR_AHEAD,
  RELAY_LOG_ID_HEADER,
  relayTokenSchema,
} from '../../../shared/relay-wire.js';
import { sandboxSuccessTransaction } from '../../support/wire-fixtures.js';

function transaction(): Record<string, unknown> {
  return sandboxSuccessTransaction();
}

function event(seq = 1): Record<string, unknown> {
  return {
    seq,
    environment: 'test',
    receivedAt: '2026-11-21T10:15:31.250Z',
    webhookCreatedAt: '2026-11-21T10:15:31Z',
    keyId: 'pk_test_abc12345',
    transaction: transaction(),
  };
}

describe('relayEventSchema', () => {
  it('accepts an event and returns it unchanged', () => {
    expect(relayEventSchema.parse(event(7))).toEqual(event(7));
  });

  it('strips unknown top-level fields (the relay is ours) but keeps unknown transaction fields', () => {
    const parsed = relayEventSchema.parse({ ...event(), extra: 1, transaction: { ...transaction(), channel: 'momo' } });
    expect(parsed).not.toHaveProperty('extra');
    expect((parsed.transaction as Record<string, unknown>).channel).toBe('momo');
  });

  it.each([
    ['seq 0', { seq: 0 }, 'seq'],
    ['negative seq', { seq: -1 }, 'seq'],
    ['fractional seq', { seq: 1.5 }, 'seq'],
    ['seq as a string', { seq: '1' }, 'seq'],
    ['environment LIVE (upper-case)', { environment: 'LIVE' }, 'environment'],
    ['receivedAt not ISO', { receivedAt: 'now' }, 'receivedAt'],
    ['webhookCreatedAt missing', { webhookCreatedAt: undefined }, 'webhookCreatedAt'],
    ['keyId missing', { keyId: undefined }, 'keyId'],
    ['transaction net wrong', { transaction: { ...transaction(), net: '9.79' } }, 'transaction.net'],
    ['FAILED transaction with a fee', { transaction: { ...transaction(), status: 'FAILED', net: '0.00' } }, 'transaction.fee'],
  ])('rejects %s', (_name, patch, path) => {
    const result = relayEventSchema.safeParse({ ...event(), ...patch });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toContain(path);
  });

  it('environments are test and live', () => {
    expect(environmentSchema.options).toEqual(['test', 'live']);
  });
});

const LOG_ID = 'AbCdEfGhIjKlMnOpQrSt-_'; // 16 bytes, base64url

describe('relayPageSchema', () => {
  it('accepts a page and an empty last page, each naming its log', () => {
    const page = { logId: LOG_ID, items: [event(1), event(2)], nextAfter: 2, hasMore: true };
    expect(relayPageSchema.parse(page)).toEqual(page);
    const empty = { logId: LOG_ID, items: [], nextAfter: 0, hasMore: false };
    expect(relayPageSchema.parse(empty)).toEqual(empty);
  });

  it('rejects a bad item, a negative cursor, a missing flag, a missing or malformed log id', () => {
    expect(
      relayPageSchema.safeParse({ logId: LOG_ID, items: [{ ...event(), seq: 0 }], nextAfter: 0, hasMore: false }).error?.issues[0]?.path,
    ).toEqual(['items', 0, 'seq']);
    expect(relayPageSchema.safeParse({ logId: LOG_ID, items: [], nextAfter: -1, hasMore: false }).success).toBe(false);
    expect(relayPageSchema.safeParse({ logId: LOG_ID, items: [], nextAfter: 0 }).success).toBe(false);
    expect(relayPageSchema.safeParse({ logId: LOG_ID, items: {}, nextAfter: 0, hasMore: false }).success).toBe(false);
    expect(relayPageSchema.safeParse({ items: [], nextAfter: 0, hasMore: false }).error?.issues[0]?.path).toEqual(['logId']);
    expect(relayPageSchema.safeParse({ logId: 'short', items: [], nextAfter: 0, hasMore: false }).error?.issues[0]?.path).toEqual([
      'logId',
    ]);
    expect(relayPageSchema.safeParse({ logId: `${LOG_ID.slice(1)}=`, items: [], nextAfter: 0, hasMore: false }).success).toBe(false);
  });
});

describe('relayHelloSchema and the cursor-ahead answer', () => {
  it('a hello names the log and its last sequence', () => {
    expect(relayHelloSchema.parse({ logId: LOG_ID, lastSeq: 0 })).toEqual({ logId: LOG_ID, lastSeq: 0 });
    expect(relayHelloSchema.safeParse({ logId: LOG_ID, lastSeq: -1 }).error?.issues[0]?.path).toEqual(['lastSeq']);
    expect(relayHelloSchema.safeParse({ lastSeq: 3 }).error?.issues[0]?.path).toEqual(['logId']);
  });

  it('the 409 body carries the code, the log id and its last sequence', () => {
    const body = { error: { code: CURSOR_AHEAD, message: 'after is beyond the log', logId: LOG_ID, lastSeq: 4 } };
    expect(relayCursorAheadSchema.parse(body)).toEqual(body);
    expect(relayCursorAheadSchema.safeParse({ error: { ...body.error, code: 'NOT_FOUND' } }).success).toBe(false);
    expect(RELAY_LOG_ID_HEADER).toBe('x-relay-log-id');
  });
});

describe('RELAY_TOKEN', () => {
  it('accepts rt_ + 43 base64url characters (32 random bytes)', () => {
    const bytes = Buffer.alloc(32, 0xfb); // 0xfb bytes encode to "-" and "_" in base64url
    const token = `rt_${bytes.toString('base64url')}`;
    expect(token).toHaveLength(46);
    expect(token).toMatch(/[-_]/);
    expect(RELAY_TOKEN.test(token)).toBe(true);
    expect(relayTokenSchema.parse(token)).toBe(token);
  });

  it.each([
    ['42 characters', `rt_${'a'.repeat(42)}`],
    ['44 characters', `rt_${'a'.repeat(44)}`],
    ['standard base64 "+"', `rt_${'a'.repeat(42)}+`],
    ['padding', `rt_${'a'.repeat(42)}=`],
    ['wrong prefix', `rk_${'a'.repeat(43)}`],
    ['a secret key', 'sk_test_4eC39HqLyjWDarjtT1zdp7dc'],
  ])('rejects %s', (_name, token) => {
    const result = relayTokenSchema.safeParse(token);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('A relay token looks like rt_ followed by 43 characters');
  });
});
