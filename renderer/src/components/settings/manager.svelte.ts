import type { KioskError, KioskInput, Result } from '../../../../shared/kiosk-api.ts';
import type { KioskState } from '../../lib/kiosk.svelte.ts';
import { i18n, t } from '../../lib/i18n.svelte.ts';
import { whileBusy } from '../../lib/attempt.ts';

export type SettingsPatch = KioskInput<'updateSettings'>['patch'];

/** Errors after which the PIN the screen holds is no good any more: the screen locks (issue 5 "manager PIN"). */
const LOCKING_CODES = new Set(['wrong_pin', 'pin_locked', 'pin_not_set']);

/**
 * The unlocked Settings screen's state, shared by its sections (style guide 15: a small class, I/O through the
 * kiosk's bridge). It holds the manager PIN typed at the gate — only in memory, only while the screen is open — so
 * every change can carry it (the KioskApi checks the PIN on each call), and one status line for all sections.
 */
export class ManagerSession {
  #pin = $state<string | null>(null);
  busy = $state(false);
  notice = $state<string | null>(null);
  problem = $state<string | null>(null);
  /** The platform's details of the last failure (e.g. the field it refused), shown under the problem. */
  details = $state.raw<string[]>([]);

  /** `kiosk` is read through a function: the screen's prop, never captured once (Svelte: state_referenced_locally). */
  readonly #kiosk: () => KioskState;
  constructor(kiosk: () => KioskState) {
    this.#kiosk = kiosk;
  }

  get kiosk(): KioskState {
    return this.#kiosk();
  }

  get unlocked(): boolean {
    return this.#pin !== null;
  }

  /** The PIN for a KioskApi call; only read while unlocked (the sections exist only then). */
  get pin(): string {
    return this.#pin ?? '';
  }

  unlock(pin: string): void {
    this.#pin = pin;
    this.clear();
  }

  lock(): void {
    this.#pin = null;
    this.clear();
  }

  clear(): void {
    this.notice = null;
    this.problem = null;
    this.details = [];
  }

  /** Shows a problem found before calling the core (a field the manager must fix). */
  refuse(message: string): void {
    this.notice = null;
    this.problem = message;
    this.details = [];
  }

  /**
   * Runs one KioskApi call with the busy flag and the status line: `done` text on success, the error in words on
   * failure (and the screen locks when the PIN was refused). Resolves to the value, or null when it failed.
   */
  async run<T>(call: () => Promise<Result<T>>, done: string | null = t('settings.saved'), pending: string = t('settings.saving')): Promise<T | null> {
    this.problem = null;
    this.details = [];
    this.notice = pending;
    const response = await whileBusy(this, call);
    if (response.ok) {
      this.notice = done;
      return response.value;
    }
    this.fail(response.error);
    return null;
  }

  fail(error: KioskError): void {
    this.notice = null;
    this.problem = i18n.error(error);
    this.details = error.details ?? [];
    if (LOCKING_CODES.has(error.code)) this.#pin = null;
  }

  /** updateSettings with the held PIN; the new settings replace the app's copy. */
  async save(patch: SettingsPatch): Promise<boolean> {
    const value = await this.run(() => this.kiosk.bridge.api.updateSettings({ pin: this.pin, patch }));
    if (value === null) return false;
    this.kiosk.settings = value;
    return true;
  }
}
