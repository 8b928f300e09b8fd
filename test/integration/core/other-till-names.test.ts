/**
 * Other tills by their names: a second till core on the same relay takes a sale; its result reaches
 * this till through the relay, carrying the second till's name in the metadata the sandbox echoes, and
 * this till's takings name it (this till's own row keeps the name from its own Settings) and count it under
 * the network its cashier charged.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { configureTest, msisdnEnding, openCore, startSale, waitForState, type LoggedCore } from './helpers.js';
import { useTill } from '../../support/till-fixture.js';

const fixture = useTill('other-till-names', { connected: true, core: { tillName: 'Front counter' } });
let back: LoggedCore | undefined;
afterAll(async () => {
  await back?.close();
});

describe('another till of the merchant', () => {
  it("is named in this till's takings by the name its payment's metadata carried", async () => {
    back = await openCore(join(fixture.root, 'back'), { tillName: 'Back room' });
    await configureTest(back, fixture.services);
    const backId = (await back.invoke('app:status', {})).tillId;
    const frontId = (await fixture.core.invoke('app:status', {})).tillId;
    expect(backId).not.toBe(frontId);

    // The back till's sale; its result reaches this till through the relay.
    const sale = await startSale(back, msisdnEnding('67', 1), '12.00');
    await waitForState(back, sale.id, ['success'], 20_000);
    await configureTest(fixture.core, fixture.services); // unlocks the owner screens again
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Africa/Accra' });
    await expect
      .poll(async () => (await fixture.core.invoke('takings:report', { from: today, to: today })).byTill, { timeout: 20_000 })
      .toContainEqual(expect.objectContaining({ tillId: backId, tillName: 'Back room', count: 1, gross: '12.00' }));
    // Under the network its cashier charged (the echoed metadata's), not the sandbox's "SANDBOX".
    const { byNetwork } = await fixture.core.invoke('takings:report', { from: today, to: today });
    expect(byNetwork.map((n) => [n.network, n.count])).toEqual([['MTN', 1]]);

    // This till's own sale is named as its own Settings name it.
    const own = await startSale(fixture.core, msisdnEnding('68', 2), '3.00');
    await waitForState(fixture.core, own.id, ['success'], 20_000);
    await expect
      .poll(async () => (await fixture.core.invoke('takings:report', { from: today, to: today })).byTill, { timeout: 20_000 })
      .toContainEqual(expect.objectContaining({ tillId: frontId, tillName: 'Front counter' }));
  });
});
