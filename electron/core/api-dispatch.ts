import { kioskError } from '../../shared/kiosk-errors.ts';
import { kioskInputs, type KioskApi, type KioskMethod, type Result } from '../../shared/kiosk-api.ts';
import { isKioskMethod } from '../../shared/kiosk-names.ts';
import { refuse } from '../../shared/kiosk-failure.ts';

/**
 * The one boundary wrapper (style guide 4): the method name must be one of the contract's, and the payload must pass
 * its schema, before any service runs. Both shells (Electron IPC and the web shell) call this, so validation is
 * written once. It never throws: a service that throws becomes {ok:false, error:{code:'internal'}} without its
 * message (an exception's text may carry details the renderer must not see).
 */
export async function dispatch(api: KioskApi, method: string, payload: unknown): Promise<Result<unknown>> {
  if (!isKioskMethod(method)) {
    return { ok: false, error: refuse('unknown_method', undefined, { details: [method.slice(0, 64)] }).kioskError() };
  }
  const name = method as KioskMethod;
  const parsed = kioskInputs[name].safeParse(payload ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join('.') || 'input';
    return { ok: false, error: kioskError('invalid_input', `${field}: ${issue?.message ?? 'invalid'}`, { details: [field] }) };
  }
  try {
    const call = api[name] as (input: unknown) => Promise<Result<unknown>>;
    return await call.call(api, parsed.data);
  } catch (error) {
    // A method that is not guarded: its throw is answered by the same mapping as the guarded ones' (issue 28; issue
    // 27 item 6: a full disk is named). Loaded only here: the mapping knows the store's errors, which bring SQLite,
    // and the web shell loads this dispatcher on its cold start (issue 14), when no call has failed yet.
    const { answerOf } = await import('./api/failures.ts');
    return { ok: false, error: answerOf(error) };
  }
}
