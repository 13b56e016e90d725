import { applyPatch, maskUrlPassword, relayUrlProblem, sameUrl } from '../settings/kiosk-settings.ts';
import { ok } from './guards.ts';
import { resetTrainingSales } from '../store/training-reset.ts';
import type { CoreServices } from './services.ts';
import type { KioskApi, KioskSettings } from '../../../shared/kiosk-api.ts';
import { parseDuration } from '../../../shared/duration.ts';
import { kioskError } from '../../../shared/kiosk-errors.ts';
import { SETTINGS, auditedPatch } from '../../../shared/settings-table.ts';

type SettingsApi = Pick<KioskApi, 'getSettings' | 'updateSettings' | 'setPin' | 'verifyPin' | 'resetTraining'>;

/** The kiosk's settings and the manager PIN that guards them (issue 5 settings, issue 12 PIN). */
export function settingsApi(deps: CoreServices): SettingsApi {
  const { guarded } = deps.guards;
  const { launch, settingsKv, vault, audit } = deps;

  const settingsView = (): KioskSettings => kioskSettingsView(deps);

  return {
    getSettings: guarded('getSettings', {}, async () => ok(settingsView())),
    updateSettings: guarded('updateSettings', { pin: true }, async (input) => {
      const { relayKey, ...patch } = input.patch;
      // issue 27: the screens see the feed URL with its password masked; that text saved back means "unchanged".
      const currentFeed = deps.settings().updateFeedUrl;
      if (patch.updateFeedUrl && currentFeed && patch.updateFeedUrl !== currentFeed && patch.updateFeedUrl === maskUrlPassword(currentFeed)) delete patch.updateFeedUrl;
      if (patch.expiration !== undefined) {
        const d = parseDuration(patch.expiration);
        if (!d.ok || d.seconds < 30 || d.seconds > 3600 * 3600) return { ok: false, error: kioskError('invalid_expiration') };
      }
      const relayProblem = patch.relayUrl ? relayUrlProblem(patch.relayUrl) : null;
      if (relayProblem) return { ok: false, error: kioskError('invalid_relay_url', `The relay URL ${relayProblem}.`) };
      // issue 18: what the feed names is installed and run; it comes over https:// (plain http:// only from this machine,
      // the relay URL's rule in settings/kiosk-settings.ts).
      if (patch.updateFeedUrl && relayUrlProblem(patch.updateFeedUrl)) {
        return { ok: false, error: kioskError('invalid_input', 'The update feed URL must start with https:// (plain http:// only for this machine).') };
      }
      // issue 18: the contract's pattern checks "HH:MM-HH:MM"; a window that starts and ends at the same minute is no
      // window at all (the updater's parseMaintenanceWindow reads it as none), so it is refused here, not kept unusable.
      if (patch.maintenanceWindow !== undefined) {
        const [start, end] = patch.maintenanceWindow.split('-');
        if (start === end) return { ok: false, error: kioskError('invalid_input', 'The maintenance window must end at another time than it starts (an end before the start crosses midnight).') };
      }
      if (patch.countryCode !== undefined && deps.training) {
        if (patch.countryCode !== deps.settings().countryCode) return { ok: false, error: kioskError('training_fixed') };
        delete patch.countryCode;
      }
      // The vault first: if the keychain refuses, nothing else has changed.
      if (relayKey === null) await vault.delete('relay_key');
      else if (relayKey !== undefined) await vault.set('relay_key', relayKey);
      if (relayKey !== undefined) deps.setSavedRelayKey(relayKey);
      // Only what the manager set is stored; the launch's defaults stay defaults (see settings/kiosk-settings.ts).
      settingsKv.set(applyPatch(settingsKv.get() ?? {}, patch, launch));
      audit.append({
        actor: 'manager',
        action: 'settings.changed',
        subject: null,
        // Never a secret itself (the table's secrets: only that they changed), never the feed URL's password.
        detail: { ...auditedPatch(SETTINGS, { ...patch, relayKey }), ...(patch.updateFeedUrl ? { updateFeedUrl: maskUrlPassword(patch.updateFeedUrl) } : {}) },
      });
      if (relayKey !== undefined || patch.relayUrl !== undefined) deps.reconfigureRelay();
      if (patch.countryCode !== undefined || patch.posId !== undefined) deps.emit({ type: 'session.changed', session: deps.sessionState() });
      return ok(settingsView());
    }),
    setPin: guarded('setPin', {}, async (input) => {
      // issue 17: through the people, who refuse a PIN another manager has (a manager is known by their PIN).
      const result = await deps.day.people.setFirstManagerPin(input.newPin, input.currentPin);
      if (!result.ok) {
        const message = {
          invalid_pin: 'A PIN is 4 to 8 digits.',
          current_pin_required: 'Changing the PIN needs the current one.',
          wrong_pin: 'The current PIN is not right.',
          locked: 'Too many wrong PINs; try again later.',
          pin_taken: 'Another manager has this PIN; choose another.',
        }[result.reason];
        return { ok: false, error: kioskError(result.reason === 'locked' ? 'pin_locked' : result.reason, message) };
      }
      audit.append({ actor: 'manager', action: 'pin.set', subject: null, detail: {} });
      return ok({ hasPin: true as const });
    }),
    verifyPin: guarded('verifyPin', { pin: true }, async () => ok({ valid: true as const })),
    // issue 15 "First five minutes": a trainer starts afresh. The guard refuses it outside training (not_training), so
    // a live kiosk's sales can never be erased this way; what it erases is audited (counts only).
    resetTraining: guarded('resetTraining', { pin: true, trainingOnly: true }, async () => {
      const result = resetTrainingSales(deps.db);
      if (!result.ok) return { ok: false, error: kioskError('training_busy') };
      audit.append({ actor: 'manager', action: 'training.reset', subject: null, detail: { orders: result.orders, outboxItems: result.outboxItems } });
      return ok({ orders: result.orders, outboxItems: result.outboxItems });
    }),
  };
}

/** The settings as the screens get them (getSettings; issue 16 choosePointOfSale answers with them too). */
export function kioskSettingsView(deps: CoreServices): KioskSettings {
  const { launch, pin } = deps;
  const s = deps.settings();
  return {
    // Every public setting of the table as in force (shared/settings-table.ts); the secrets only as `<name>Set`.
    ...s,
    // A key is kept for the relay: the one the manager saved, or the launch's for its own relay.
    relayKeySet: deps.savedRelayKey() !== null || (launch.relay !== null && s.relayUrl !== null && sameUrl(launch.relay.url, s.relayUrl)),
    platformUrl: deps.platformUrl,
    // issue 27: its password is not the screens' to show, PIN or not; the updater reads KioskCore.updateFeedUrl().
    updateFeedUrl: s.updateFeedUrl === null ? null : maskUrlPassword(s.updateFeedUrl),
    hasPin: pin.isSet(),
  };
}
