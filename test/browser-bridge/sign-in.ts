/** Who is at the till: signing in by PIN on the "Who is selling?" screen, and switching person to it. */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { text } from './cashier.js';
import type { Till } from './harness.js';

export const signInHeading = (page: Page) => page.getByRole('heading', { name: 'Who is selling?' });

/** On the sign-in screen: type the PIN, Enter, and wait until the till names `name` as signed in. */
export async function signIn(page: Page, pin: string, name: string): Promise<void> {
  await signInHeading(page).waitFor();
  await page.locator('#sign-in-pin').fill(pin);
  await page.keyboard.press('Enter');
  await expect.poll(() => text(page, 'signed-in')).toContain(name);
}

/** Switch on the session badge, then wait for the sign-in screen. */
export async function switchPerson(page: Page): Promise<void> {
  await page.getByRole('button', { name: /Switch$/ }).click();
  await signInHeading(page).waitFor();
}

/** Hand the till to `name`: Switch (unless the sign-in screen already shows, as after a lock), then sign in. */
export async function switchTo(page: Page, pin: string, name: string): Promise<void> {
  if ((await signInHeading(page).count()) === 0) await switchPerson(page);
  await signIn(page, pin, name);
}

/**
 * `name`, a manager with PIN `pin`, signed in through the screens from a fresh page: on a till with no owner
 * PIN yet, the owner's (`ownerPin`) is set and the manager added first; whoever was signed in is locked out.
 */
export async function managerAtTheTill(till: Till, ownerPin: string, pin: string, name: string): Promise<Page> {
  const status = (await till.invoke('app:status', {})) as { pinSet: boolean };
  if (!status.pinSet) {
    await till.invoke('owner:setPin', { pin: ownerPin });
    await till.invoke('staff:add', { name, role: 'manager', pin });
  }
  await till.invoke('session:lock', {}).catch(() => undefined); // nobody signed in already is fine
  await till.reload();
  await signIn(till.page, pin, name);
  return till.page;
}
