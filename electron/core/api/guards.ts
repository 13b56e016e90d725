import type { Logger } from '../ports.ts';
import type { PinVerifyResult } from '../people/pin.ts';
import { pinVerdictError } from '../people/people.ts';
import { kioskError } from '../../../shared/kiosk-errors.ts';
import { KioskFailure } from '../../../shared/kiosk-failure.ts';
import { answerOf } from './failures.ts';
import type { Currency } from '../../../shared/money.ts';
import type { KioskApi, KioskError, KioskInput, KioskMethod, KioskOutputs, Result } from '../../../shared/kiosk-api.ts';
import type { PersonRef } from '../../../shared/day-api.ts';

/**
 * What a KioskApi method needs before its handler runs (issue 13 "Core services, each small"): each method declares
 * them once, and `guarded` applies them in this order, every check answering as the facade always did:
 * - `pin`: a manager's PIN in `input.pin` (pin_not_set, wrong_pin, pin_locked, keychain_unavailable); issue 17: any
 *   manager's, and the handler gets which manager it was (`manager`, null when the PIN check names nobody);
 * - `trainingOnly`: training mode only (not_training);
 * - `connected`: the platform account is connected (not_connected);
 * - `country`: the seller's country is known (no_country); the handler gets its currency.
 */
export interface GuardSpec {
  pin?: true;
  trainingOnly?: true;
  connected?: true;
  country?: true;
}

/** What the handler receives besides its input: the currency when the spec asks for a country, the manager for a PIN. */
export type GuardContext<S extends GuardSpec> = (S extends { country: true } ? { currency: Currency } : unknown) & (S extends { pin: true } ? { manager: PersonRef | null } : unknown);

export type Failure = { ok: false; error: KioskError };

export interface GuardServices {
  /** issue 17: the managers' PINs (people/people.ts); a right PIN names its manager in `person`. */
  pin: { isSet(): boolean; verify(given: string): Promise<PinVerifyResult & { person?: PersonRef }> };
  /** The seller's currency, from the country in the settings; null while no country is known. */
  currency(): Currency | null;
  training: boolean;
  connected(): boolean;
  logger: Logger;
  /** issue 17: told which manager's PIN let each PIN-guarded call through (the core audits it). */
  onApproved?: (method: KioskMethod, manager: PersonRef) => void;
}

export interface Guards {
  /**
   * The method `method` with its guards applied before `handler`, and every throw of the handler (or of a guard)
   * mapped by `fail`: the method never rejects.
   */
  guarded<M extends KioskMethod, S extends GuardSpec>(
    method: M,
    spec: S,
    handler: (input: KioskInput<M>, context: GuardContext<S>) => Promise<Result<KioskOutputs[M]>>,
  ): KioskApi[M];
  /** The manager-PIN check alone (connect's first run sets the PIN instead): null when `given` is a manager's PIN. */
  requirePin(given: string): Promise<KioskError | null>;
  /** A thrown error as the Result the renderer sees (style guide 5); an unknown one is logged and `internal`. */
  fail(error: unknown): Failure;
}

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

/** The one answer for an order id this kiosk does not have (issue 12: such an order is never fetched into it). */
export const orderNotFound = (id: string): Failure => ({ ok: false, error: kioskError('order_not_found', `No order ${id} on this kiosk.`) });

export function createGuards(services: GuardServices): Guards {
  const { pin, logger } = services;

  async function requirePin(given: string): Promise<KioskError | null> {
    const approval = await approve(given);
    return 'error' in approval ? approval.error : null;
  }

  /** The PIN check, and which manager the PIN is (null when the check names nobody). */
  async function approve(given: string): Promise<{ error: KioskError } | { manager: PersonRef | null }> {
    if (!pin.isSet()) return { error: kioskError('pin_not_set') };
    let verdict;
    try {
      verdict = await pin.verify(given);
    } catch (error) {
      // issue 12: no keychain, no pepper, no PIN check: never accepted (the vault's keychain_unavailable).
      if (error instanceof KioskFailure && error.code === 'keychain_unavailable') return { error: error.kioskError() };
      throw error;
    }
    return verdict.ok ? { manager: verdict.person ?? null } : { error: pinVerdictError(verdict) };
  }

  function fail(error: unknown): Failure {
    return { ok: false, error: answerOf(error, logger) };
  }

  function guarded<M extends KioskMethod, S extends GuardSpec>(
    method: M,
    spec: S,
    handler: (input: KioskInput<M>, context: GuardContext<S>) => Promise<Result<KioskOutputs[M]>>,
  ): KioskApi[M] {
    const run = async (input: KioskInput<M>): Promise<Result<KioskOutputs[M]>> => {
      try {
        let manager: PersonRef | null = null;
        if (spec.pin) {
          const given = (input as { pin?: unknown }).pin;
          const approval = await approve(typeof given === 'string' ? given : '');
          if ('error' in approval) return { ok: false, error: approval.error };
          manager = approval.manager;
          if (manager) services.onApproved?.(method, manager);
        }
        if (spec.trainingOnly && !services.training) return { ok: false, error: kioskError('not_training') };
        if (spec.connected && !services.connected()) return { ok: false, error: kioskError('not_connected') };
        let context = (spec.pin ? { manager } : {}) as GuardContext<S>;
        if (spec.country) {
          const currency = services.currency();
          if (!currency) return { ok: false, error: kioskError('no_country') };
          context = { ...(context as object), currency } as GuardContext<S>;
        }
        return await handler(input, context);
      } catch (error) {
        return fail(error);
      }
    };
    return run as KioskApi[M];
  }

  return { guarded, requirePin, fail };
}
