// The sign-in steps the issue 17 browser tests share ("People": a cashier signs in with their own PIN on the sign-in
// screen, name tiles then the PIN pad; "Shifts": the same screen opens and closes a shift).
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { KioskBrowser } from './kiosk-browser.ts';
import { pressDigits, WAIT } from './settings-screen.ts';

export interface Cashier {
  readonly name: string;
  readonly pin: string;
}

/** The sign-in screen's tile of exactly `name` ("Ana" is also inside "Manager"). */
export const personTile = (page: Page, name: string) => page.getByTestId('person-tile').filter({ has: page.getByText(name, { exact: true }) });

/**
 * Adds `cashiers` through the core's API (e2e/people drives the People tab itself), turns sign-in on and reloads: the
 * renderer reads who sells when it starts. Ends on the sign-in screen.
 */
export async function requireSignIn(k: KioskBrowser, managerPin: string, cashiers: readonly Cashier[]): Promise<void> {
  for (const { name, pin } of cashiers) {
    assert.ok((await k.core.api.addPerson({ pin: managerPin, person: { name, role: 'cashier', pin } })).ok, `${name} added`);
  }
  assert.ok((await k.core.api.updateDaySettings({ pin: managerPin, patch: { signIn: 'required' } })).ok);
  await k.page.reload();
  await k.page.getByTestId('sign-in').waitFor(WAIT);
}

/**
 * On the sign-in screen: the tile of `who` (unless `tile` is false: their PIN pad stays shown after the shift button),
 * their PIN on the PIN pad, then `button` (sign in, or open/close the shift).
 */
export async function enterPin(page: Page, who: Cashier, button: 'sign-in-enter' | 'shift-toggle', tile = true): Promise<void> {
  if (tile) await personTile(page, who.name).click();
  assert.equal(await page.locator('[data-testid="sign-in"] [data-pad="pin"]').count(), 1, 'the PIN pad, not the amount pad');
  await pressDigits(page.getByTestId('sign-in'), who.pin);
  await page.getByTestId(button).click();
}

/** Signs `who` in (as enterPin) and waits for the header's cashier button to name them. */
export async function signIn(page: Page, who: Cashier, tile = true): Promise<void> {
  await enterPin(page, who, 'sign-in-enter', tile);
  await page.getByTestId('cashier-button').filter({ hasText: who.name }).waitFor(WAIT);
}
