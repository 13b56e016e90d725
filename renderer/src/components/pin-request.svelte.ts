import type { Result } from '../../../shared/kiosk-api.ts';
import { i18n } from '../lib/i18n.svelte.ts';

/**
 * One KioskApi call behind a PIN typed on a PinPad (style guide 15: a small state class): a manager's PIN for a list
 * row's refund, retry or drop (issue 29 cash refunds, the outbox's manager control), or the PIN of the person who opens,
 * pays out of or closes the till (issue 29). `target` is what the PIN is asked for (the row, the person), null while
 * nothing is asked; the screen shows the PinPad bound to `pin`, the buttons off while `busy`, and `problem` in words.
 */
export class PinRequest<Target> {
  target = $state.raw<Target | null>(null);
  pin = $state('');
  busy = $state(false);
  problem = $state<string | null>(null);

  /** Asks for the PIN about `target` afresh: an empty pad and no refusal left from before. */
  ask(target: Target): void {
    this.target = target;
    this.pin = '';
    this.problem = null;
  }

  /** Stops asking (Cancel, Back): the digits typed so far are dropped. */
  dismiss(): void {
    this.target = null;
    this.pin = '';
  }

  /**
   * Runs `call` with the typed PIN, busy meanwhile, and empties the pad after it either way (a refused PIN is typed
   * again; a used one is not kept in memory). Resolves to the call's answer; on failure its error is in `problem`,
   * in words. `target` stays: the screen decides what follows a success.
   */
  async run<T>(call: (pin: string) => Promise<Result<T>>): Promise<Result<T>> {
    this.busy = true;
    this.problem = null;
    let answer: Result<T>;
    try {
      answer = await call(this.pin);
    } finally {
      this.busy = false;
      this.pin = '';
    }
    if (!answer.ok) this.problem = i18n.error(answer.error);
    return answer;
  }
}
