import type { KioskApi } from '../../../../shared/kiosk-api.ts';
import type { CounterQr } from '../../../../shared/setup-api.ts';

/**
 * The counter's printed QR, kept for the session (issue 16 "In static mode the sale screen tells the cashier to point
 * the customer at the counter's QR, and the customer display shows it"): every static charge shows the same image, so
 * the core (which fetches it from the platform) is asked once per POS, not once per charge. A failure is not kept, so
 * the next charge asks again; the POS is the key, so choosing another POS shows its own code.
 */
const kept = new Map<string, Promise<CounterQr | null>>();

/** The counter QR of `posId` (KioskSettings.posId / KioskOrder.posId), or null when the core cannot give it now. */
export function counterQrFor(api: Pick<KioskApi, 'getCounterQr'>, posId: string): Promise<CounterQr | null> {
  let found = kept.get(posId);
  if (!found) {
    found = api.getCounterQr({}).then(
      (result) => (result.ok && result.value.posId === posId ? result.value : null),
      () => null,
    );
    kept.set(posId, found);
    void found.then((qr) => {
      if (!qr && kept.get(posId) === found) kept.delete(posId);
    });
  }
  return found;
}

/** What the assistant's QR step just fetched: the sale screen then needs no call of its own. */
export function keepCounterQr(qr: CounterQr): void {
  kept.set(qr.posId, Promise.resolve(qr));
}
