import type { TokenVault, TrainingPort } from '../ports.ts';
import type { PlatformSession } from '../platform/session.ts';
import type { EffectiveSettings } from '../settings/kiosk-settings.ts';
import type { SessionState } from '../../../shared/kiosk-api.ts';
import { COUNTRY_CURRENCY } from '../../../shared/schemas/common.ts';

export interface SessionStateSources {
  session: Pick<PlatformSession, 'state' | 'userId'>;
  settings(): EffectiveSettings;
  training: TrainingPort | null;
  vault: Pick<TokenVault, 'kind'>;
  /** Shown to the manager when the vault is memory (training without a keychain). */
  vaultWarning: string | null;
}

/** The session as the screens see it (getSession, the event session.changed): the account, the seller's country, the vault. */
export function sessionStateOf(o: SessionStateSources): () => SessionState {
  return () => {
    const s = o.settings();
    const country = s.countryCode;
    const reconnect = o.session.state === 'reconnect_needed';
    return {
      state: o.session.state,
      training: o.training !== null,
      vault: o.vault.kind,
      userId: o.session.userId,
      countryCode: country,
      currency: country ? COUNTRY_CURRENCY[country] : null,
      posId: s.posId,
      problem: reconnect ? 'The account must be connected again by a manager.' : o.vaultWarning,
      problemCode: reconnect ? 'reconnect_needed' : o.training && o.vault.kind === 'memory' ? 'keychain_memory' : null,
    };
  };
}
