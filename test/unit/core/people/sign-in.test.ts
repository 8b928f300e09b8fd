/** Sign-in on a real core: the lock-out across a restart and under parallel tries, PIN refusals, idle lock, audit. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemorySecretStore, createTillCore, type TillCore } from '../../../../electron/core/index.js';
import { hashPin } from '../../../../electron/core/people/pin.js';

const dirs: string[] = [];
const cores: TillCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'momo-signin-'));
  dirs.push(dir);
  return dir;
}
const secrets = createMemorySecretStore();
async function open(dataDir: string, extra: { now?: () => number; idleLockMs?: number } = {}): Promise<TillCore> {
  const core = await createTillCore({ dataDir, embedded: false, secretStore: secrets, log: () => undefined, ...extra });
  cores.push(core);
  return core;
}
const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code: string }) => e.code,
  );

async function withStaff(core: TillCore): Promise<string> {
  await core.invoke('owner:setPin', { pin: '2468' });
  const kofi = await core.invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: '1357' });
  return kofi.id;
}

// Each PIN is a real scrypt hash: on a loaded machine a test does dozens of them.
describe('sign-in', { timeout: 30_000 }, () => {
  it('200 parallel wrong PINs for one person: 5 are checked, the rest refused, and the lock-out survives a restart', async () => {
    const dir = newDir();
    const core = await open(dir);
    const kofi = await withStaff(core);
    const codes = await Promise.all(
      Array.from({ length: 200 }, (_, i) => codeOf(core.invoke('session:signIn', { staffId: kofi, pin: String(2000 + i) }))),
    );
    expect(codes.filter((c) => c === 'WRONG_PIN')).toHaveLength(4);
    expect(codes.filter((c) => c === 'PIN_LOCKED')).toHaveLength(196); // the fifth wrong one starts the lock-out
    expect(await codeOf(core.invoke('session:signIn', { staffId: kofi, pin: '1357' }))).toBe('PIN_LOCKED');
    // Typed without a name, a locked person's PIN matches nobody.
    expect(await codeOf(core.invoke('session:signIn', { pin: '1357' }))).toBe('WRONG_PIN');
    await core.close();

    const again = await open(dir);
    expect(await codeOf(again.invoke('session:signIn', { staffId: kofi, pin: '1357' }))).toBe('PIN_LOCKED');
    await again.invoke('session:signIn', { pin: '2468' });
    const audit = await again.invoke('audit:list', {});
    expect(audit.entries.filter((e) => e.action === 'pin_failed')).toHaveLength(5);
    expect(audit.entries.filter((e) => e.action === 'pin_lockout')).toHaveLength(1);
  });

  it('refuses a new PIN that is too short, all one digit or another person’s, saying which', async () => {
    const core = await open(newDir());
    await withStaff(core);
    const refusal = (pin: string) => core.invoke('staff:add', { name: 'Ama', role: 'cashier', pin }).catch((e: unknown) => e);
    expect(await refusal('135')).toMatchObject({ code: 'PIN_INVALID', field: 'pin', message: expect.stringMatching(/too short/) });
    expect(await refusal('4444')).toMatchObject({ code: 'PIN_INVALID', field: 'pin', message: expect.stringMatching(/all one digit/) });
    expect(await refusal('1357')).toMatchObject({ code: 'PIN_TAKEN', field: 'pin', message: expect.stringMatching(/Another person/) });
    expect(await refusal('2468')).toMatchObject({ code: 'PIN_TAKEN' }); // the owner's
    expect((await core.invoke('staff:list', {})).staff.map((s) => s.name)).toEqual(['Owner', 'Kofi']);
  });

  it('identifies the person by PIN alone, locks after the idle time, and keeps the shop anonymous without staff', async () => {
    let now = 1_800_000_000_000;
    const core = await open(newDir(), { now: () => now, idleLockMs: 5 * 60_000 });
    expect((await core.invoke('app:status', {})).caller).toBe('anonymous');
    const kofi = await withStaff(core);
    await core.invoke('session:lock', {});
    expect((await core.invoke('app:status', {})).caller).toBe('locked');
    expect((await core.invoke('session:signIn', { pin: '1357' })).person).toEqual({ id: kofi, name: 'Kofi', role: 'cashier' });
    now += 4 * 60_000;
    await core.invoke('session:touch', {});
    now += 4 * 60_000;
    expect((await core.invoke('app:status', {})).caller).toBe('cashier');
    now += 60_000;
    expect((await core.invoke('app:status', {})).signedIn).toBeNull();
    await core.invoke('session:signIn', { pin: '2468' });
    await core.invoke('staff:update', { id: kofi, name: 'Kofi', role: 'cashier', active: false });
    await core.invoke('owner:lock', {});
    expect((await core.invoke('app:status', {})).caller).toBe('anonymous'); // no staff left: the one-person shop
  });

  it('a clock jump (a laptop that slept) locks the till on its own within seconds, with the lock event, no call needed', async () => {
    let ahead = 0;
    const core = await open(newDir(), { now: () => Date.now() + ahead, idleLockMs: 60_000 });
    await withStaff(core);
    await core.invoke('session:lock', {});
    await core.invoke('session:signIn', { pin: '1357' });
    const events: Array<{ reason: string; signedIn: unknown }> = [];
    core.on('session:changed', (p) => events.push(p));
    ahead = 16 * 60_000;
    const started = Date.now();
    while (events.length === 0 && Date.now() - started < 5_000) await new Promise((r) => setTimeout(r, 50));
    expect(events).toEqual([{ reason: 'idle', signedIn: null }]);
  });

  it('keeps the owner PIN of an install from before staff existed', async () => {
    const dir = newDir();
    await (await open(dir)).close();
    const file = join(dir, 'settings.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), pinHash: await hashPin('24681357') }));
    const core = await open(dir);
    expect((await core.invoke('app:status', {})).pinSet).toBe(true);
    expect(await core.invoke('owner:unlock', { pin: '24681357' })).toEqual({ ok: true });
    expect(JSON.parse(readFileSync(file, 'utf8')).pinHash).toBeNull();
  });

  it('records settings changes by field name, never the values', async () => {
    const core = await open(newDir());
    await withStaff(core);
    await core.invoke('settings:saveTill', { tillName: 'Back door', timeZone: 'Africa/Accra', idleLockMinutes: 7 });
    const [entry] = (await core.invoke('audit:list', { action: 'settings_changed' })).entries;
    expect(entry).toMatchObject({ actorName: 'Owner', detail: 'till: tillName, idleLockMinutes' });
    expect(JSON.stringify(entry)).not.toContain('Back door');
  });
});
