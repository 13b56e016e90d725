// The kiosk's web-shell API as the issue 14 benches drive it (kiosk-soak, history-scale): POST /api/<method> with the
// launch secret, the way the renderer's bridge calls it (electron/web-shell/server.ts). test/support has no client of
// its own (the suites call fetch inline to check statuses and refusals), so the benches share this one.
import type { Result } from '../../shared/kiosk-api.ts';

export type KioskApiCall = <T>(method: string, input: unknown) => Promise<T>;

/** Calls the kiosk at `origin` with its launch `secret`; resolves with the Result's value, throws naming the error code. */
export function kioskApiClient(origin: string, secret: string): KioskApiCall {
  return async <T>(method: string, input: unknown): Promise<T> => {
    const response = await fetch(`${origin}/api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-kiosk-secret': secret }, body: JSON.stringify(input) });
    const result = (await response.json()) as Result<T>;
    if (!result.ok) throw new Error(`kiosk ${method}: ${result.error.code} ${result.error.message}`);
    return result.value;
  };
}
