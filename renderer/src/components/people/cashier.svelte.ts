import type { CurrentCashier, PersonRef } from '../../../../shared/day-api.ts';
import { FIRST_MANAGER } from '../../../../shared/kiosk-names.ts';
import type { Bridge } from '../../lib/bridge.ts';
import { t } from '../../lib/i18n.svelte.ts';

/**
 * Who is selling (issue 17 "People"), shared by the header's cashier button, the sign-in screen and Settings' People
 * tab. The core sends no event when it changes, so whoever changes it (signIn, signOut, updateDaySettings) stores the
 * core's answer here. Kept tiny: it is in the first script, the screens that change it are lazy.
 */
class Cashier {
  now = $state.raw<CurrentCashier | null>(null);
  /** The header asked to switch cashier: the sign-in screen shows over a signed-in cashier. */
  switching = $state(false);

  /** Sign-in is on and nobody is signed in (or a switch was asked for): the sign-in screen is due. */
  get due(): boolean {
    return this.switching || (this.now?.signInRequired === true && this.now.person === null);
  }

  async load(bridge: Bridge): Promise<void> {
    const answer = await bridge.api.currentCashier({});
    if (answer.ok) this.now = answer.value;
  }
}

export const cashier = new Cashier();

/**
 * A person's name as the screens show it (issue 17 "People"): the first manager's stored default ("Manager") reads in
 * the kiosk's language, the role's word, until the owner renames them; any other name as it was typed.
 */
export const personName = (person: PersonRef): string =>
  person.id === FIRST_MANAGER.id && person.name === FIRST_MANAGER.name ? t('people.role.manager') : person.name;
