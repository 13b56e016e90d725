import { applyPatch } from '../settings/kiosk-settings.ts';
import { ok } from './guards.ts';
import type { CoreServices } from './services.ts';
import type { KioskApi } from '../../../shared/kiosk-api.ts';
import { kioskError } from '../../../shared/kiosk-errors.ts';

type ConnectionApi = Pick<KioskApi, 'getSession' | 'connect' | 'disconnect' | 'getConnectivity'>;

/** The platform account (platform/session.ts) and the kiosk's reach to the platform and the relay (issue 5 banner). */
export function connectionApi(deps: CoreServices): ConnectionApi {
  const { guarded, requirePin } = deps.guards;
  const { session, pin, audit, training, launch, settingsKv, sessionState } = deps;
  return {
    getSession: guarded('getSession', {}, async () => ok(sessionState())),
    // Not { pin: true }: on the first run the PIN given here becomes the manager PIN; afterwards connecting needs it.
    connect: guarded('connect', {}, async (input) => {
      if (training && input.countryCode !== undefined && input.countryCode !== deps.settings().countryCode) return { ok: false, error: kioskError('training_fixed') };
      if (pin.isSet()) {
        const problem = await requirePin(input.pin);
        if (problem) return { ok: false, error: problem };
      } else {
        const first = await pin.set(input.pin);
        if (!first.ok) return { ok: false, error: kioskError(first.reason === 'locked' ? 'pin_locked' : first.reason, 'The manager PIN could not be set.') };
      }
      if (input.method === 'client_credentials') await session.connectClientCredentials(input.clientId, input.clientSecret);
      else {
        if (!deps.openBrowser) return { ok: false, error: kioskError('no_browser') };
        await session.connectAuthorizationCode(input.clientId, input.clientSecret, { openBrowser: deps.openBrowser });
      }
      // The platform's token does not say the seller's country, so the manager names it (it sets the currency).
      if (!training && input.countryCode !== undefined) settingsKv.set(applyPatch(settingsKv.get() ?? {}, { countryCode: input.countryCode }, launch));
      audit.append({
        actor: 'manager',
        action: 'session.connect',
        subject: input.clientId,
        detail: { method: input.method, ...(input.countryCode !== undefined ? { countryCode: input.countryCode } : {}) },
      });
      deps.emit({ type: 'session.changed', session: sessionState() });
      return ok(sessionState());
    }),
    disconnect: guarded('disconnect', { pin: true }, async () => {
      await session.disconnect();
      audit.append({ actor: 'manager', action: 'session.disconnect', subject: null, detail: {} });
      return ok(sessionState());
    }),
    getConnectivity: guarded('getConnectivity', {}, async () => ok(deps.connectivity())),
  };
}
