/**
 * The same number and amount asks first whoever started the earlier payment: Ama's charge is still open
 * (the customer's answer held back), she stops waiting and switches to Kofi, and Kofi's charge of the same
 * amount to the same number asks first, naming Ama, although Kofi's History shows only his own shift.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { enter, focused, sell, sellToWaiting, text } from '../browser-bridge/cashier.js';
import { sandboxTransactions } from '../browser-bridge/sandbox-api.js';
import { signIn, switchTo } from '../browser-bridge/sign-in.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';
import { HeldClock } from '../support/held-clock.js';

const clock = new HeldClock();
const till = useTill(() => ({ embeddedTimeScale: TIME_SCALE, embeddedClock: clock }));
afterEach(() => clock.release());

const AMA = '8642';
const KOFI = '1357';

describe('the duplicate question sees the whole shop', () => {
  it("Kofi charging what Ama's open charge is asking for is asked first, naming Ama", async () => {
    const t = till.get();
    await t.invoke('owner:setPin', { pin: '2468' });
    await t.invoke('staff:add', { name: 'Ama', role: 'cashier', pin: AMA });
    await t.invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: KOFI });
    await t.invoke('session:lock', {}).catch(() => undefined);
    await t.reload();
    const { page } = t;
    await signIn(page, AMA, 'Ama');
    clock.hold(); // the customer's answer does not come (as with the relay down)
    await sellToWaiting(page, '10', '0245551006');
    await page.keyboard.press('Escape'); // Ama stops waiting: the payment stays open
    await focused(page, 'amount');
    await switchTo(page, KOFI, 'Kofi');
    await sell(page, '10', '0245551006');
    const dialog = page.getByTestId('confirm-charge');
    await dialog.waitFor();
    expect(await text(page, 'confirm-charge')).toMatch(/already has a payment of GH₵10.00 from .*Pending/);
    expect(await text(page, 'confirm-started-by')).toMatch(/^Started by Ama at this till/);
    await enter(page); // No, go back
    await dialog.waitFor({ state: 'detached' });
    expect((await sandboxTransactions(t.sandboxUrl())).filter((tx) => tx.msisdn === '233245551006')).toHaveLength(1);
  });
});
