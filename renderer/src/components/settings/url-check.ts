import { isLoopbackHostname } from '../../../../shared/loopback.ts';
import { t } from '../../lib/i18n.svelte.ts';

/**
 * Why an address typed in Settings cannot be saved, in words, or null when it can: an absolute http(s) URL (the
 * KioskApi takes z.url()), and plain http:// only on this machine. The relay's (issue 12: the kiosk key goes with every
 * connection) and the update feed's (issue 18: what it names is installed and run); the core refuses the same.
 */
export function urlProblem(draft: string): string | null {
  try {
    const url = new URL(draft);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return t('settings.relay.urlInvalid');
    return url.protocol === 'http:' && !isLoopbackHostname(url.hostname) ? t('settings.relay.urlInsecure') : null;
  } catch {
    return t('settings.relay.urlInvalid');
  }
}
