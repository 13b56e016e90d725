import { randomBytes } from 'node:crypto';
import type { TokenVault } from '../ports.ts';
import { PinRecordError } from './pin-record.ts';
import type { ManagerPin, PinSetResult, PinVerifyResult } from './pin.ts';

// issue 12: the manager PIN's hash is keyed with a pepper kept in the vault (the OS keychain), so a copied database
// alone does not give the PIN to an offline search (see pin.ts for the construction). In training without a keychain
// the vault is memory: the pepper lives and dies with the process, like the tokens (see PepperedPin.forgetIfPepperLost).

/** 32 random bytes: as many as HMAC-SHA256's block needs to be a full-strength key. */
export const PIN_PEPPER_BYTES = 32;

/**
 * The pepper in the vault (secret `pin_pepper`: 32 random bytes as hex; the HMAC key is that text), created on first
 * need. Calls run one after another, so two first uses at once cannot store two different peppers. Rejects with the
 * vault's VaultUnavailableError.
 */
export class PinPepper {
  readonly #vault: TokenVault;
  readonly #random: (size: number) => Buffer;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(vault: TokenVault, random: (size: number) => Buffer = randomBytes) {
    this.#vault = vault;
    this.#random = random;
  }

  /** True when the vault is memory: the pepper is gone when the process ends. */
  get volatile(): boolean {
    return this.#vault.kind === 'memory';
  }

  /** The stored pepper, or null when the vault has none. */
  read(): Promise<Buffer | null> {
    return this.#serial(async () => asKey(await this.#vault.get('pin_pepper')));
  }

  /** The stored pepper; a new one is made and stored first when the vault has none. */
  readOrCreate(): Promise<Buffer> {
    return this.#serial(async () => {
      const stored = asKey(await this.#vault.get('pin_pepper'));
      if (stored !== null) return stored;
      const fresh = this.#random(PIN_PEPPER_BYTES).toString('hex');
      await this.#vault.set('pin_pepper', fresh);
      return asKey(fresh) as Buffer;
    });
  }

  #serial<T>(step: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(step, step);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

/**
 * The manager PIN as the core uses it: ManagerPin keyed with the vault's pepper. Each call reads the pepper from the
 * vault first; ManagerPin.verify then counts the attempt in one synchronous load-and-save before it derives the hash
 * (issue 27), so concurrent attempts cannot overwrite each other's count of wrong PINs nor get past the limit.
 *
 * Failure: rejects with VaultUnavailableError (code keychain_unavailable) when the vault cannot be read, and with
 * PinPepperMissingError (a VaultUnavailableError too) when the stored PIN was keyed with a pepper the vault no longer
 * holds; a PIN is never accepted then, and no attempt is counted. PinRecordError for a damaged record, as ManagerPin.
 */
export class PepperedPin {
  readonly #pin: ManagerPin;
  readonly #pepper: PinPepper;

  constructor(pin: ManagerPin, pepper: PinPepper) {
    this.#pin = pin;
    this.#pepper = pepper;
  }

  isSet(): boolean {
    return this.#pin.isSet();
  }

  /** ManagerPin.verify with the pepper; a record from before the pepper is re-hashed with it on a correct PIN. */
  async verify(given: string): Promise<PinVerifyResult> {
    const pepper = await this.#pepperFor();
    return this.#pin.verify(given, pepper ?? undefined);
  }

  /** ManagerPin.matches with the pepper: nothing counted (issue 17: which manager a PIN belongs to). */
  async matches(given: string): Promise<boolean> {
    if (!this.#pin.isSet()) return false;
    const pepper = await this.#pepperFor();
    return this.#pin.matches(given, pepper ?? undefined);
  }

  /** ManagerPin.set with the pepper (created on the first PIN). */
  async set(newPin: string, currentPin?: string): Promise<PinSetResult> {
    const pepper = await this.#pepperFor();
    return this.#pin.set(newPin, currentPin, pepper ?? undefined);
  }

  /**
   * Training without a keychain (a memory vault) loses the pepper when the process ends, and with it any way to check
   * the PIN set before: that PIN is forgotten, so a manager sets a new one (README "Where data and logs live"). Returns
   * whether it was. With a keychain nothing is forgotten: a missing pepper there is an error the person must see.
   */
  async forgetIfPepperLost(forget: () => void): Promise<boolean> {
    if (!this.#pepper.volatile) return false;
    try {
      if (!this.#pin.isPeppered()) return false;
    } catch (error) {
      // A damaged record is reported where the PIN is used, as before; it is not this method's to forget.
      if (error instanceof PinRecordError) return false;
      throw error;
    }
    if ((await this.#pepper.read()) !== null) return false;
    forget();
    return true;
  }

  /**
   * The pepper this call needs: the stored one when the PIN is keyed with it (null when it is gone: ManagerPin then
   * throws PinPepperMissingError rather than count a right PIN as wrong); otherwise the stored or a new one, for the
   * first PIN or to re-hash a record from before the pepper. A new pepper is never made for a peppered record: the
   * PIN could then never match again.
   */
  #pepperFor(): Promise<Buffer | null> {
    return this.#pin.isPeppered() ? this.#pepper.read() : this.#pepper.readOrCreate();
  }
}

/** The HMAC key is the stored text itself: no decoding step that could read an edited entry as a shorter key. */
function asKey(text: string | null): Buffer | null {
  return text === null ? null : Buffer.from(text, 'utf8');
}
