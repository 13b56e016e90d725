import { z } from 'zod';
import { COUNTRY_CODES, LANGUAGES, MAINTENANCE_WINDOW_PATTERN, type CountryCode, type KioskInput, type Language } from '../../../shared/kiosk-api.ts';
import { QR_MODES } from '../../../shared/schemas/order.ts';
import { isLoopbackHostname } from '../../../shared/loopback.ts';

/**
 * What a manager set, and only that (the settings table, key kiosk_settings): a field that is absent takes the
 * launch's default, so a default that changes from launch to launch (the embedded relay's port) is never frozen into
 * the store. `relayUrl: null` is a choice too (no relay). The relay key is not here: it lives in the vault.
 */
export const storedSettingsSchema = z.object({
  posId: z.string().min(1).max(128).optional(),
  qrMode: z.enum(QR_MODES).optional(),
  expiration: z.string().min(1).max(32).optional(),
  language: z.enum(LANGUAGES).optional(),
  relayUrl: z.url().nullable().optional(),
  countryCode: z.enum(COUNTRY_CODES).optional(),
  storeName: z.string().min(1).max(64).optional(),
  printerName: z.string().min(1).max(128).optional(),
  soundOnPayment: z.boolean().optional(),
  updateFeedUrl: z.url().nullable().optional(),
  maintenanceWindow: z.string().regex(MAINTENANCE_WINDOW_PATTERN).optional(),
});
export type StoredSettings = z.infer<typeof storedSettingsSchema>;

/** What the launch decides: the training seller's POS and country, and the relay it started (or was told of). */
export interface LaunchDefaults {
  posId: string;
  /** Training: the sandbox seller's country, which no one can change. */
  trainingCountry: CountryCode | null;
  relay: { url: string; key: string } | null;
}

export interface EffectiveSettings {
  posId: string;
  qrMode: (typeof QR_MODES)[number];
  expiration: string;
  language: Language;
  relayUrl: string | null;
  countryCode: CountryCode | null;
  storeName: string | null;
  printerName: string | null;
  /** issue 15 "Outcomes full screen": a short chime on Paid, unless the manager turned it off (training too). */
  soundOnPayment: boolean;
  /** issue 18: where the Electron shell looks for updates; null (the default): it does not update itself. */
  updateFeedUrl: string | null;
  /** issue 18: when an idle kiosk may install a downloaded update, "HH:MM-HH:MM" local time. */
  maintenanceWindow: string;
}

const LANGUAGE_BY_COUNTRY: Record<CountryCode, Language> = { AR: 'es-AR', CL: 'es-CL', UY: 'es-UY', BR: 'pt-BR' };

/** The settings in force: the manager's choices over the launch's defaults (training fixes the country). */
export function effectiveSettings(stored: StoredSettings, launch: LaunchDefaults): EffectiveSettings {
  const countryCode = launch.trainingCountry ?? stored.countryCode ?? null;
  return {
    posId: stored.posId ?? launch.posId,
    qrMode: stored.qrMode ?? 'dynamic',
    expiration: stored.expiration ?? 'PT5M',
    language: stored.language ?? (countryCode ? LANGUAGE_BY_COUNTRY[countryCode] : 'es-AR'),
    relayUrl: stored.relayUrl !== undefined ? stored.relayUrl : (launch.relay?.url ?? null),
    countryCode,
    storeName: stored.storeName ?? null,
    printerName: stored.printerName ?? null,
    soundOnPayment: stored.soundOnPayment ?? true,
    updateFeedUrl: stored.updateFeedUrl ?? null,
    maintenanceWindow: stored.maintenanceWindow ?? '03:00-05:00',
  };
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

type Patch = KioskInput<'updateSettings'>['patch'];

/**
 * The stored settings after `patch`: fields given are set (storeName and printerName null: back to none), fields absent
 * are left as they were. Choosing the launch's own relay URL means following the launch's relay, so it is not stored
 * (a settings form that sends back the URL it showed must not freeze this launch's port). The relay key is not a
 * stored setting; the caller puts it in the vault.
 */
export function applyPatch(stored: StoredSettings, patch: Omit<Patch, 'relayKey'>, launch: LaunchDefaults): StoredSettings {
  const next: StoredSettings = { ...stored };
  if (patch.posId !== undefined) next.posId = patch.posId;
  if (patch.qrMode !== undefined) next.qrMode = patch.qrMode;
  if (patch.expiration !== undefined) next.expiration = patch.expiration;
  if (patch.language !== undefined) next.language = patch.language;
  if (patch.relayUrl !== undefined) {
    if (patch.relayUrl !== null && launch.relay && sameUrl(patch.relayUrl, launch.relay.url)) delete next.relayUrl;
    else next.relayUrl = patch.relayUrl;
  }
  if (patch.countryCode !== undefined) next.countryCode = patch.countryCode;
  if (patch.storeName !== undefined) {
    if (patch.storeName === null) delete next.storeName;
    else next.storeName = patch.storeName;
  }
  if (patch.printerName !== undefined) {
    if (patch.printerName === null) delete next.printerName;
    else next.printerName = patch.printerName;
  }
  if (patch.soundOnPayment !== undefined) next.soundOnPayment = patch.soundOnPayment;
  if (patch.updateFeedUrl !== undefined) {
    if (patch.updateFeedUrl === null) delete next.updateFeedUrl;
    else next.updateFeedUrl = patch.updateFeedUrl;
  }
  if (patch.maintenanceWindow !== undefined) next.maintenanceWindow = patch.maintenanceWindow;
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
