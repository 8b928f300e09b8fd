/**
 * What every faults scenario checks, on the shop under test: the till's records equal the service's, how
 * many prompts a number got, the result on screen; and a till with staff (the owner adds them, the till
 * locks, as after the owner's setup).
 */
import { expect } from 'vitest';
import { resultTitle, text } from '../../browser-bridge/cashier.js';
import { sandboxTransactions } from '../../browser-bridge/sandbox-api.js';
import { disagreements, OWNER_PIN, records, type Shop } from './shop.js';

/** The till and the service agree, whatever the fault was; `typed`: the amounts the cashier typed (cedis). */
export async function expectRecordsAgree(shop: Shop, typed: string[]): Promise<void> {
  await expect.poll(async () => disagreements(await records(shop), typed), { timeout: 20_000 }).toEqual([]);
}

export async function serviceStatus(shop: Shop, msisdn: string): Promise<string | undefined> {
  return (await sandboxTransactions(shop.sandbox.baseUrl)).find((t) => t.msisdn === msisdn)?.status;
}

/** How many prompts the service sent to this number (one per sale, whatever the fault). */
export async function prompts(shop: Shop, msisdn: string): Promise<number> {
  return (await sandboxTransactions(shop.sandbox.baseUrl)).filter((t) => t.msisdn === msisdn).length;
}

/** The result screen shows `title` for the amount typed. */
export async function expectResult(shop: Shop, title: 'PAID' | 'NOT PAID', amount: string): Promise<void> {
  expect(await resultTitle(shop.page, 30_000)).toBe(title);
  expect(await text(shop.page, 'result-amount')).toBe(amount);
}

/** The owner adds these people; the till then opens at "Who is selling?". */
export async function staffTheTill(shop: Shop, people: Array<{ name: string; role: 'cashier' | 'manager'; pin: string }>): Promise<void> {
  await shop.till.invoke('owner:unlock', { pin: OWNER_PIN });
  for (const person of people) await shop.till.invoke('staff:add', person);
  await shop.till.invoke('session:lock', {}).catch(() => undefined);
  await shop.page.reload();
}
