/**
 * Settle by hand across the real parts: the till core (its dispatcher and roles), the real sandbox and relay
 * on loopback, real SQLite, the real keychain. A number ending 07 is authorised but its webhook is held until
 * replayed from the sandbox's dashboard. Only a manager or the owner may settle, only once overdue; the
 * replayed result then agrees (confirmed, the service's fee) or disagrees (it wins, the owner is alerted),
 * and a second replay (the relay answers 2xx and pushes nothing) changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { msisdnEnding, PIN, startSale, waitForEvent, waitForState, type LoggedCore } from './helpers.js';
import { useTill } from '../../support/till-fixture.js';
import type { PaymentView } from '../../../shared/ipc/contract.js';

let aheadMs = 0;
const fixture = useTill('till-settle', { connected: true, core: { now: () => Date.now() + aheadMs, idleLockMs: 60 * 60_000 } });
const MARY = '3579';
const KOFI = '1357';

const signIn = (core: LoggedCore, pin: string) => core.invoke('session:signIn', { pin });
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'allowed',
    (e: { code: string }) => e.code,
  );

async function overdueSaleOf07(seed: number): Promise<PaymentView> {
  const { core } = fixture;
  await signIn(core, KOFI);
  aheadMs = 0;
  const sale = await startSale(core, msisdnEnding('07', seed), '20.00');
  expect(sale.state).toBe('awaiting_customer');
  // Authorised in the sandbox, but no webhook: the payment stays open.
  await expect.poll(async () => (await sandboxTransaction(sale.reference))?.status, { timeout: 10_000 }).toBe('SUCCESS');
  expect((await core.invoke('payments:get', { id: sale.id }))?.state).toBe('awaiting_customer');
  return sale;
}

async function sandboxTransaction(reference: string | null) {
  const res = await fetch(`${fixture.services.sandbox.baseUrl}/dashboard/api/transactions`);
  return ((await res.json()) as { data: Array<{ reference: string; status: string; fee: string }> }).data.find(
    (t) => t.reference === reference,
  );
}

/** The dashboard's Replay for the payment's delivery: one attempt now, answered by the relay. */
async function replay(reference: string | null): Promise<string> {
  const base = fixture.services.sandbox.baseUrl;
  const list = (await (await fetch(`${base}/dashboard/api/deliveries`)).json()) as { data: Array<{ id: string; reference: string }> };
  const delivery = list.data.find((d) => d.reference === reference);
  const res = await fetch(`${base}/dashboard/api/deliveries/${delivery?.id}/replay`, {
    method: 'POST',
    headers: { 'x-sandbox-dashboard': '1' },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { status: string } }).data.status;
}

const settle = (core: LoggedCore, request: Record<string, unknown>) => core.invoke('payments:settle', request);

describe('settle by hand with the real sandbox and relay', () => {
  it('only a manager or the owner, only once overdue; a paid one the replay confirms, and a second replay changes nothing', async () => {
    const { core } = fixture;
    await core.invoke('staff:add', { name: 'Mary', role: 'manager', pin: MARY });
    await core.invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: KOFI });
    const sale = await overdueSaleOf07(1);
    const request = { id: sale.id, outcome: 'paid', reference: sale.reference, note: 'Paid on the dashboard' };
    expect(await refusal(settle(core, request))).toBe('FORBIDDEN'); // Kofi, a cashier
    await signIn(core, MARY);
    expect(await settle(core, request)).toMatchObject({ ok: false, message: expect.stringMatching(/^Only an overdue payment/) });
    aheadMs = 16 * 60_000;
    const updated = waitForEvent(core, 'payment:updated', (p) => p.id === sale.id && p.settledByHand !== null);
    expect(await settle(core, request)).toMatchObject({ ok: true, payment: { state: 'success', fee: '0.00', net: '20.00' } });
    expect((await updated).settledByHand).toMatchObject({ outcome: 'paid', by: 'Mary', check: null });

    expect(await replay(sale.reference)).toBe('DELIVERED');
    await expect
      .poll(async () => (await core.invoke('payments:get', { id: sale.id }))?.settledByHand?.check, { timeout: 10_000 })
      .toBe('confirmed');
    const serviceFee = (await sandboxTransaction(sale.reference))?.fee;
    const after = await core.invoke('payments:get', { id: sale.id });
    expect(after).toMatchObject({ state: 'success', fee: serviceFee });
    const takings = async () => {
      const day = new Date(Date.now() + aheadMs).toISOString().slice(0, 10);
      return core.invoke('takings:report', { from: day, to: day });
    };
    expect((await takings()).byHand).toMatchObject({ count: 1, succeeded: 1, gross: '20.00', fees: serviceFee });

    expect(await replay(sale.reference)).toBe('DELIVERED'); // the relay has it: 2xx, nothing pushed again
    await new Promise((r) => setTimeout(r, 300));
    expect(await core.invoke('payments:get', { id: sale.id })).toEqual(after);
    expect((await takings()).byHand).toMatchObject({ count: 1, fees: serviceFee });
  });

  it("a NOT PAID the replay contradicts: the service's SUCCESS wins and the owner alone is alerted until they acknowledge", async () => {
    const { core } = fixture;
    const sale = await overdueSaleOf07(2);
    await signIn(core, MARY);
    aheadMs = 16 * 60_000;
    expect(await settle(core, { id: sale.id, outcome: 'not_paid', note: 'No money on the dashboard' })).toMatchObject({
      ok: true,
      payment: { state: 'failed' },
    });
    const alerted = waitForEvent(core, 'alerts:changed', (p) => p.open === 1);
    await replay(sale.reference);
    await alerted;
    const won = await waitForState(core, sale.id, ['success']);
    expect(won.settledByHand).toMatchObject({ outcome: 'not_paid', check: 'overridden' });
    expect(await refusal(core.invoke('alerts:list', {}))).toBe('FORBIDDEN'); // a manager
    await signIn(core, PIN);
    const { items } = await core.invoke('alerts:list', {});
    expect(items).toHaveLength(1);
    expect(items[0]?.message).toContain(`says PAID (reference ${sale.reference})`);
    expect(await core.invoke('alerts:acknowledge', { id: items[0]!.id })).toMatchObject({ acknowledgedBy: 'Owner' });
    expect(await core.invoke('alerts:list', {})).toEqual({ items: [] });
    const actions = (await core.invoke('audit:list', {})).entries.map((e) => e.action);
    expect(actions.filter((a) => a === 'settle_by_hand')).toHaveLength(2);
    expect(actions).toContain('alert_acknowledged');
  });
});
