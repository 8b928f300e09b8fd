/**
 * The permission matrix, generated from the contract: every IPC channel, called by every kind of caller
 * on a real core, is refused with FORBIDDEN exactly when shared/ipc/roles.ts says that caller may not make
 * it. A new channel is in IPC_CHANNELS, so it is in this test without anyone remembering to add it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TillCore } from '../../../electron/core/index.js';
import { openUnitCore } from '../../support/unit-core.js';
import { IPC_CHANNELS, type IpcChannel } from '../../../shared/ipc/contract.js';
import { CALLERS, CHANNEL_CALLERS, mayCall, type Caller } from '../../../shared/ipc/roles.js';

const PINS = { owner: '2468', manager: '3579', cashier: '1357' } as const;
let core: TillCore;

async function callerNow(): Promise<Caller> {
  return (await core.invoke('app:status', {})).caller;
}

/** Puts the core in the state of `caller` (cores start anonymous: no owner, no staff). */
async function become(caller: Caller): Promise<void> {
  if ((await callerNow()) === caller) return;
  if (caller === 'locked') await core.invoke('session:lock', {});
  else await core.invoke('session:signIn', { pin: PINS[caller as keyof typeof PINS] });
  expect(await callerNow()).toBe(caller);
}

async function refusal(channel: IpcChannel): Promise<string | null> {
  try {
    await core.invoke(channel, {});
    return null;
  } catch (error) {
    return (error as { code: string }).code;
  }
}

let close: () => Promise<void>;
beforeAll(async () => {
  ({ core, close } = await openUnitCore('momo-perm-'));
});
afterAll(() => close());

describe('the permission matrix', { timeout: 30_000 }, () => {
  it('names the callers of every channel of the contract', () => {
    expect(Object.keys(CHANNEL_CALLERS).sort()).toEqual([...IPC_CHANNELS].sort());
  });

  it('gives the roles of the issue: cashier sells, manager adds takings, owner adds settings, staff and audit', () => {
    expect(mayCall('cashier', 'payments:charge')).toBe(true);
    expect(mayCall('cashier', 'takings:report')).toBe(false);
    expect(mayCall('manager', 'takings:report')).toBe(true);
    expect(mayCall('manager', 'settings:get')).toBe(false);
    expect(mayCall('manager', 'staff:add')).toBe(false);
    expect(mayCall('owner', 'audit:list')).toBe(true);
    expect(mayCall('locked', 'payments:charge')).toBe(false);
    expect(mayCall('anonymous', 'settings:save')).toBe(false);
    expect(mayCall('manager', 'payments:settle')).toBe(true);
    expect(mayCall('owner', 'payments:settle')).toBe(true);
    expect(mayCall('cashier', 'payments:settle')).toBe(false);
    expect(mayCall('anonymous', 'payments:settle')).toBe(false);
    expect(mayCall('owner', 'alerts:acknowledge')).toBe(true);
    expect(mayCall('manager', 'alerts:list')).toBe(false);
  });

  // Order matters: anonymous first (no owner yet), then the owner creates the staff.
  for (const caller of ['anonymous', 'owner', 'locked', 'cashier', 'manager'] as const satisfies readonly Caller[]) {
    it(`${caller}: FORBIDDEN on exactly the channels roles.ts refuses`, async () => {
      if (caller === 'owner') {
        await core.invoke('owner:setPin', { pin: PINS.owner });
        await core.invoke('staff:add', { name: 'Mary', role: 'manager', pin: PINS.manager });
        await core.invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: PINS.cashier });
      }
      const wrong: string[] = [];
      for (const channel of IPC_CHANNELS) {
        await become(caller);
        const forbidden = (await refusal(channel)) === 'FORBIDDEN';
        if (forbidden === mayCall(caller, channel)) wrong.push(`${channel}: ${forbidden ? 'refused' : 'allowed'}`);
      }
      expect(wrong).toEqual([]);
    });
  }

  it('covers every caller', () => {
    expect(new Set(CALLERS)).toEqual(new Set(['anonymous', 'owner', 'locked', 'cashier', 'manager']));
  });
});
