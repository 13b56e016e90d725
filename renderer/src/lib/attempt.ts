import type { KioskError, Result } from '../../../shared/kiosk-api.ts';

/** A screen's call in flight and what went wrong with the last one, in words (a component keeps it in `$state`). */
export interface AttemptState {
  busy: boolean;
  problem: string | null;
}

/** Runs `call` with `state.busy` set until it settles, even when it throws (issue 5: the buttons wait meanwhile). */
export async function whileBusy<T>(state: { busy: boolean }, call: () => Promise<T>): Promise<T> {
  state.busy = true;
  try {
    return await call();
  } finally {
    state.busy = false;
  }
}

/**
 * Runs one KioskApi call for a screen outside the manager's sections (the PIN gate, the assistant's test charge):
 * busy while it runs, the last problem cleared first. Resolves to the value; when the core refused, to null with the
 * refusal in words (`word`: i18n.error) as the problem.
 */
export async function attempt<T>(state: AttemptState, call: () => Promise<Result<T>>, word: (error: KioskError) => string): Promise<T | null> {
  state.problem = null;
  const result = await whileBusy(state, call);
  if (result.ok) return result.value;
  state.problem = word(result.error);
  return null;
}
