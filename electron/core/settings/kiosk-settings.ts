import { SETTINGS, patchedSettings, settingsInForce, type SettingsInForce, type SettingsPatch, type StoredSettings } from '../../../shared/settings-table.ts';
import type { CountryCode } from '../../../shared/kiosk-names.ts';
import { isLoopbackHostname } from '../../../shared/loopback.ts';

// The settings themselves are the rows of shared/settings-table.ts (issue 28); here is what the core adds: the launch's
// part in them, training's fixed country, and the relay's rules.

/**
 * What a manager set, and only that (the settings table, key kiosk_settings): a field that is absent takes the
 * launch's default, so a default that changes from launch to launch (the embedded relay's port) is never frozen into
 * the store. `relayUrl: null` is a choice too (no relay). The relay key is not here: it lives in the vault.
 */
export { storedSettingsSchema } from '../../../shared/settings-schemas.ts';
export type { StoredSettings } from '../../../shared/settings-table.ts';

/** What the launch decides: the training seller's POS and country, and the relay it started (or was told of). */
export interface LaunchDefaults {
  posId: string;
  /** Training: the sandbox seller's country, which no one can change. */
  trainingCountry: CountryCode | null;
  relay: { url: string; key: string } | null;
}

/** The settings in force, one per public row of the table. */
export type EffectiveSettings = SettingsInForce;

/** The settings in force: the manager's choices over the defaults (the launch's, the country's); training fixes the country. */
export function effectiveSettings(stored: StoredSettings, launch: LaunchDefaults): EffectiveSettings {
  const countryCode = launch.trainingCountry ?? stored.countryCode ?? null;
  const inForce = settingsInForce(SETTINGS, stored, { posId: launch.posId, relayUrl: launch.relay?.url ?? null, countryCode });
  return { ...inForce, countryCode };
}

/**
 * Why a relay URL cannot be used, as the end of a sentence ("The relay URL ..."), or null when it can. issue 12: the
 * kiosk key goes to the relay on every connection, so the URL must be https:// except on this machine (loopback, the
 * same rule as the platform URL's, launch/kiosk-config.ts).
 */
/**
 * issue 27 item 6: a URL as the screens may show it, its password (if any) replaced by "•••" (`https://user:•••@host/`);
 * anything else unchanged. The main process keeps the real URL (KioskCore.updateFeedUrl) for the updater.
 */
export function maskUrlPassword(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  if (url.password === '') return text;
  // Built by hand: URL.password would percent-encode the bullets.
  const userinfo = `${url.username}:•••@`;
  return `${url.protocol}//${userinfo}${url.host}${url.pathname}${url.search}${url.hash}`;
}

/** The password in a URL (percent-decoded), for the logger's redaction list; null when there is none. */
export function urlPassword(text: string | null): string | null {
  if (!text) return null;
  try {
    const password = new URL(text).password;
    return password === '' ? null : decodeURIComponent(password);
  } catch {
    return null;
  }
}

export function relayUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `must start with https:// (not ${url.protocol}//)`;
  if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname)) {
    return 'must start with https://: the kiosk key would cross the network in clear (plain http:// only for this machine: localhost, 127.x.x.x, [::1])';
  }
  return null;
}

/**
 * The relay the kiosk subscribes to: the URL in force with the key the manager saved, or else the launch's key, but
 * only for the launch's own relay URL (a key is never sent to a relay it was not issued by). Null when either is
 * missing, and for a URL relayUrlProblem refuses (one stored before the rule: the key is never sent in clear): the
 * poller then does all the work.
 */
export function effectiveRelay(settings: EffectiveSettings, savedKey: string | null, launch: LaunchDefaults): { url: string; key: string } | null {
  if (!settings.relayUrl || relayUrlProblem(settings.relayUrl) !== null) return null;
  const key = savedKey ?? (launch.relay && sameUrl(launch.relay.url, settings.relayUrl) ? launch.relay.key : null);
  return key ? { url: settings.relayUrl, key } : null;
}

/**
 * The stored settings after `patch` (shared/settings-table.ts patchedSettings: fields given are set, null forgets a
 * name or a feed URL, absent fields are left as they were). Choosing the launch's own relay URL means following the
 * launch's relay, so it is not stored (a settings form that sends back the URL it showed must not freeze this launch's
 * port). The relay key is not a stored setting; the caller puts it in the vault.
 */
export function applyPatch(stored: StoredSettings, patch: Omit<SettingsPatch, 'relayKey'>, launch: LaunchDefaults): StoredSettings {
  const next = patchedSettings(SETTINGS, stored, patch);
  if (patch.relayUrl && launch.relay && sameUrl(patch.relayUrl, launch.relay.url)) delete next.relayUrl;
  return next;
}

/** Two relay URLs name the same relay when they differ at most by a trailing slash or the /events path. */
export function sameUrl(a: string, b: string): boolean {
  const norm = (url: string) => {
    try {
      const parsed = new URL(url);
      return `${parsed.origin}${parsed.pathname.replace(/\/events\/?$/, '').replace(/\/+$/, '')}`;
    } catch {
      return url;
    }
  };
  return norm(a) === norm(b);
}
