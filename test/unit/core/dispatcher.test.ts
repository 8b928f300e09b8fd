/** The dispatcher: who may call checked first, each call validated once, one envelope out, never a stack. */
import { describe, expect, it } from 'vitest';
import type { IpcChannel } from '../../../shared/ipc/contract.js';
import { createDispatcher, type HandlerMap } from '../../../electron/core/dispatcher.js';
import { CoreError } from '../../../electron/core/errors.js';
import type { Logger } from '../../../electron/core/logger.js';

const lines: string[] = [];
const log: Logger = {
  info: (event) => void lines.push(event),
  warn: (event) => void lines.push(event),
  error: (event) => void lines.push(event),
  registerSecret: () => undefined,
};

function setup(options: { allowed?: IpcChannel[]; closed?: boolean } = {}) {
  const calls: string[] = [];
  const handlers = {
    'owner:lock': async () => {
      calls.push('owner:lock');
      return { ok: true };
    },
    'takings:exportCsv': async ({ from }: { from: string }) => {
      calls.push(`takings:exportCsv ${from}`);
      return { filename: 'takings.csv', csv: '' };
    },
    'payments:get': async () => ({ not: 'a payment' }),
    'payments:pending': async () => {
      throw new Error('disk on fire');
    },
    'settings:saveCounter': async () => {
      throw new CoreError('SETTINGS_INVALID', 'The smallest usual amount must be below the other.', 'minimum');
    },
  } as unknown as HandlerMap<IpcChannel>;
  const asked: IpcChannel[] = [];
  const allowed = new Set(options.allowed ?? ['owner:lock', 'payments:get', 'payments:pending', 'settings:saveCounter']);
  const dispatcher = createDispatcher({
    handlers,
    authorize: (channel) => {
      asked.push(channel);
      if (!allowed.has(channel)) throw new CoreError('FORBIDDEN', 'Not for this caller.');
    },
    log,
    closed: () => options.closed === true,
  });
  return { dispatcher, calls, asked };
}

describe('dispatcher', () => {
  it('runs a valid call and answers with the checked value, plainly or in the envelope', async () => {
    const { dispatcher, calls, asked } = setup();
    expect(await dispatcher.invoke('owner:lock', {})).toEqual({ ok: true });
    expect(await dispatcher.answer('owner:lock', undefined)).toEqual({ ok: true, value: { ok: true } });
    expect(calls).toEqual(['owner:lock', 'owner:lock']);
    expect(asked).toEqual(['owner:lock', 'owner:lock']);
  });

  it('asks who may call before reading the payload; a refused call runs nothing', async () => {
    const { dispatcher, calls, asked } = setup();
    expect(await dispatcher.answer('takings:exportCsv', { nonsense: true })).toEqual({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'Not for this caller.' },
    });
    expect(asked).toEqual(['takings:exportCsv']);
    expect(calls).toEqual([]);
  });

  it('refuses an invalid request before the handler runs', async () => {
    const { dispatcher, calls } = setup({ allowed: ['takings:exportCsv', 'owner:lock'] });
    const answer = await dispatcher.answer('takings:exportCsv', { from: '2026-02-30', to: '2026-03-01' });
    expect(answer).toEqual({ ok: false, error: { code: 'INVALID_REQUEST', message: expect.stringMatching(/from.*real calendar date/) } });
    await expect(dispatcher.invoke('owner:lock', { extra: 1 })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(calls).toEqual([]);
    expect(await dispatcher.invoke('takings:exportCsv', { from: '2026-11-01', to: '2026-11-02' })).toEqual({
      filename: 'takings.csv',
      csv: '',
    });
    expect(calls).toEqual(['takings:exportCsv 2026-11-01']);
  });

  it('refuses unknown channels and calls after close', async () => {
    expect(await setup().dispatcher.answer('fs:read', {})).toEqual({
      ok: false,
      error: { code: 'UNKNOWN_CHANNEL', message: 'Unknown call fs:read.' },
    });
    expect(await setup().dispatcher.answer('__proto__', {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    expect(await setup({ closed: true }).dispatcher.answer('owner:lock', {})).toMatchObject({ ok: false, error: { code: 'CLOSED' } });
  });

  it('never lets a stack or an unchecked answer out; a field the core blames travels with the error', async () => {
    const { dispatcher } = setup();
    lines.length = 0;
    expect(await dispatcher.answer('payments:get', { id: 'x' })).toEqual({
      ok: false,
      error: { code: 'INTERNAL', message: 'The till produced an answer it could not check. Try again.' },
    });
    const failed = await dispatcher.answer('payments:pending', {});
    expect(failed).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(failed)).not.toMatch(/disk on fire|at /);
    expect(lines).toEqual(['ipc.bad_response', 'ipc.failed']);
    const counter = { amountEntry: 'cedis', minimum: '5.00', confirmAbove: '1.00' };
    await expect(dispatcher.invoke('settings:saveCounter', counter)).rejects.toEqual({
      code: 'SETTINGS_INVALID',
      message: 'The smallest usual amount must be below the other.',
      field: 'minimum',
    });
  });
});
