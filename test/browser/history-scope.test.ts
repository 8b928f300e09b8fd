/**
 * A cashier looking for a colleague's payment is not left with a bare "0 payments", as if it did not exist:
 * History says that cashiers see their own open shift's payments, and to ask a manager.
 */
import { describe, expect, it } from 'vitest';
import { axe, text } from '../browser-bridge/cashier.js';
import { signIn } from '../browser-bridge/sign-in.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';

const till = useTill(() => ({ embeddedTimeScale: TIME_SCALE, idleLockMs: 60 * 60_000 }));

describe("a cashier's History", () => {
  it('a colleague\'s payment: not "0 payments" alone, but whose payments a cashier sees and whom to ask', async () => {
    const t = till.get();
    await t.invoke('owner:setPin', { pin: '2468' });
    await t.invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: '1357' });
    await t.invoke('staff:add', { name: 'Ama', role: 'cashier', pin: '2580' });
    await t.invoke('session:signIn', { pin: '1357' });
    const charged = (await t.invoke('payments:charge', {
      requestId: 'scope-kofi-1',
      amount: '15.00',
      msisdn: '0241234567',
      network: 'MTN',
    })) as {
      ok: boolean;
    };
    expect(charged).toMatchObject({ ok: true }); // Kofi's sale
    await t.invoke('session:lock', {});
    await t.reload();
    const { page } = t;
    await signIn(page, '2580', 'Ama');
    await page.getByRole('button', { name: 'History', exact: true }).click();
    await page.locator('#history-search').fill('4567');
    await expect.poll(() => text(page, 'history-count')).toBe('0 payments in your shift');
    expect(await text(page, 'history-scope')).toBe(
      'Cashiers see the payments of their own open shift only. For a colleague’s payment or an earlier shift, ask a manager.',
    );
    expect(await axe(page)).toEqual([]);
  });
});
