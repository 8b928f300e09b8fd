/** npm run reset-owner-pin: a forgotten owner PIN is reset from a terminal, only with the till closed; staff PINs are kept. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore, createTillCore, type TillCore } from '../../../electron/core/index.js';

const dir = mkdtempSync(join(tmpdir(), 'momo-reset-'));
const secrets = createMemorySecretStore();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const open = () => createTillCore({ dataDir: dir, embedded: false, secretStore: secrets, log: () => undefined });

function resetPin(input: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/reset-owner-pin.ts', '--data', dir],
      { timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}

describe('reset-owner-pin', () => {
  it('refuses while the till is open, then resets the owner PIN and keeps the staff', async () => {
    let core: TillCore = await open();
    await core.invoke('owner:setPin', { pin: '2468' });
    await core.invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: '1357' });

    const whileOpen = await resetPin('9753\n9753\n');
    expect(whileOpen.code).not.toBe(0);
    expect(whileOpen.stderr).toMatch(/The till is open: close it first/);
    await core.close();

    const taken = await resetPin('1357\n1357\n');
    expect(taken.stderr).toMatch(/Another person on this till already has this PIN/);
    const done = await resetPin('9753\n9753\n');
    expect(done).toMatchObject({ code: 0, stdout: expect.stringMatching(/The owner PIN is reset/) });

    core = await open();
    try {
      expect(await core.invoke('owner:unlock', { pin: '2468' })).toEqual({ ok: false, message: 'That PIN is not right.' });
      expect(await core.invoke('owner:unlock', { pin: '9753' })).toEqual({ ok: true });
      expect((await core.invoke('session:signIn', { pin: '1357' })).person.name).toBe('Kofi');
      await core.invoke('session:signIn', { pin: '9753' });
      const [entry] = (await core.invoke('audit:list', { action: 'owner_pin_set' })).entries;
      expect(entry?.detail).toMatch(/reset from a terminal/);
    } finally {
      await core.close();
    }
  });
});
