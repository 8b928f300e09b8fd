/** Which first-connection failures the relay waits out, and how the others are said (no connection string, ever). */
import { describe, expect, it } from 'vitest';
import {
  connectError,
  isUnreachable,
  PgSetupError,
  PgUnreachableError,
  waitForDatabase,
} from '../../../../../relay/store/pg/pg-startup.js';

const sqlError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });

describe('isUnreachable / connectError', () => {
  it('waits out socket errors, time-outs and a server starting, stopping or full', () => {
    expect(isUnreachable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isUnreachable(new Error('Connection terminated due to connection timeout'))).toBe(true);
    expect(isUnreachable(sqlError('57P03', 'the database system is starting up'))).toBe(true);
    expect(isUnreachable(sqlError('53300', 'sorry, too many clients already'))).toBe(true);
    expect(connectError(Object.assign(new Error('getaddrinfo ENOTFOUND db.internal'), { code: 'ENOTFOUND' }))).toBeInstanceOf(
      PgUnreachableError,
    );
  });

  it('says a refused login or a missing database at once, without the URL', () => {
    const login = connectError(sqlError('28P01', 'password authentication failed for user "relay"'));
    expect(login).toBeInstanceOf(PgSetupError);
    expect(login.message).toMatch(/refused the login .* check the user and password in RELAY_DATABASE_URL/);
    const missing = connectError(sqlError('3D000', 'database "relay" does not exist'));
    expect(missing.message).toBe('database "relay" does not exist: create it first (relay/docs/postgresql.md, "Database bootstrap")');
    const leaky = connectError(new Error('bad postgres://relay:s3cret@db/relay'));
    expect(leaky.message).not.toContain('s3cret');
  });
});

describe('waitForDatabase', () => {
  it('retries only an unreachable database, doubling the wait up to the cap, logging each', async () => {
    const lines: Array<Record<string, unknown>> = [];
    let calls = 0;
    const result = await waitForDatabase(
      async () => {
        calls++;
        if (calls < 4) throw new PgUnreachableError('Cannot reach the relay database (x)');
        return 'open';
      },
      { log: (l) => lines.push(l), firstDelayMs: 1, maxDelayMs: 3 },
    );
    expect(result).toBe('open');
    expect(lines.filter((l) => l.msg === 'database_unreachable').map((l) => l.retryInMs)).toEqual([1, 2, 3]);
    expect(lines.at(-1)).toMatchObject({ msg: 'database_reachable', attempts: 4 });
    await expect(waitForDatabase(() => Promise.reject(new PgSetupError('no')), { log: () => undefined, firstDelayMs: 1 })).rejects.toThrow(
      'no',
    );
  });
});
