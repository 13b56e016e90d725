import type { Result } from '../../../shared/kiosk-api.ts';
import { i18n } from '../lib/i18n.svelte.ts';
import { attempt } from '../lib/attempt.ts';

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
   * Runs `call` with the typed PIN as lib/attempt.ts runs a call (busy meanwhile, the last problem cleared first), and
   * empties the pad after it either way (a refused PIN is typed again; a used one is not kept in memory). Resolves to
   * the value; when the core refused, to null with the refusal in words in `problem`. `target` stays: the screen
   * decides what follows a success.
   */
  async run<T>(call: (pin: string) => Promise<Result<T>>): Promise<T | null> {
    const pin = this.pin;
    try {
      return await attempt(this, () => call(pin), (error) => i18n.error(error));
    } finally {
      this.pin = '';
    }
  }
}
