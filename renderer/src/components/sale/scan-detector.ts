/**
 * Telling a barcode scanner from a person typing (issue 29 "Scanner"), as pure functions of key timing, so node:test
 * checks them without a browser. A keyboard-wedge scanner types a code's characters a few milliseconds apart and ends
 * with Enter (or Tab, as some are set up); a person's keys come 80 ms or more apart, and never six in a row faster than
 * SCAN_MAX_GAP_MS. The detector holds back every key that could start a scan; the caller then either gets a scanned
 * code (the terminator came fast after at least SCAN_MIN_LENGTH fast keys) or gets the held keys back, in order, to
 * handle as typed. So a scan's digits never reach the amount and its Enter never reaches Charge.
 */

/** The fewest characters a burst needs to be a scan: EAN-8, the shortest retail code, has 8; 6 leaves room for short shop codes. */
export const SCAN_MIN_LENGTH = 6;
/** The longest pause between a scan's keys (wedge scanners send a key every 2–20 ms; people type ~100 ms apart). */
export const SCAN_MAX_GAP_MS = 50;

/**
 * A scan is made of the characters a catalog code can hold (external_code: letters, digits, - and _; barcodes are
 * digits). Anything else (a space, the decimal comma or point) is a person typing a note or an amount, and ends a burst.
 */
const CODE_CHARACTER = /^[A-Za-z0-9_-]$/;
/** Keys a scanner presses around its characters (Shift for a capital letter) that neither end nor extend a burst. */
const MODIFIER_KEYS = new Set(['Shift', 'CapsLock', 'Control', 'Alt', 'AltGraph', 'Meta', 'NumLock']);
const TERMINATORS = new Set(['Enter', 'Tab']);

/** The parts of a keydown the detector reads (a plain object in unit tests); `payload` comes back on release. */
export interface ScanKey<T> {
  key: string;
  /** The event's timeStamp, in ms. */
  time: number;
  ctrlKey?: boolean;
  altKey?: boolean;
  metaKey?: boolean;
  /** A key held down repeats every ~30 ms: a person, never a scanner. */
  repeat?: boolean;
  payload: T;
}

/**
 * What to do with a key. `release`: keys held earlier that turned out to be typing; handle them, in order, before
 * this key. `hold`: keep this key back (prevent it). `scan`: this key ended a scan of `code`; swallow it. `pass`:
 * handle this key as usual.
 */
export type ScanStep<T> = { release: T[] } & ({ action: 'pass' } | { action: 'hold' } | { action: 'scan'; code: string });

export interface ScanDetectorOptions {
  minLength?: number;
  maxGapMs?: number;
}

/** One keyboard's bursts: feed it every keydown, and call `expire` when no key came for `maxGapMs`. */
export class ScanDetector<T> {
  readonly #minLength: number;
  readonly #maxGapMs: number;
  #held: Array<ScanKey<T>> = [];

  constructor(options: ScanDetectorOptions = {}) {
    this.#minLength = options.minLength ?? SCAN_MIN_LENGTH;
    this.#maxGapMs = options.maxGapMs ?? SCAN_MAX_GAP_MS;
  }

  /** Whether keys are held (the caller then arranges to call `expire` after `maxGapMs`). */
  get holding(): boolean {
    return this.#held.length > 0;
  }

  key(press: ScanKey<T>): ScanStep<T> {
    if (MODIFIER_KEYS.has(press.key)) return { release: [], action: 'pass' };
    const shortcutOrRepeat = press.ctrlKey === true || press.altKey === true || press.metaKey === true || press.repeat === true;
    const last = this.#held[this.#held.length - 1];
    const fast = last !== undefined && press.time - last.time <= this.#maxGapMs;
    if (!shortcutOrRepeat && TERMINATORS.has(press.key)) {
      if (fast && this.#held.length >= this.#minLength) {
        const code = this.#held.map((held) => held.key).join('');
        this.#held = [];
        return { release: [], action: 'scan', code };
      }
      return { release: this.#take(), action: 'pass' };
    }
    if (shortcutOrRepeat || !CODE_CHARACTER.test(press.key)) return { release: this.#take(), action: 'pass' };
    // A code character: it extends a fast burst, or starts a new one after releasing a slow one.
    const release = fast ? [] : this.#take();
    this.#held.push(press);
    return { release, action: 'hold' };
  }

  /** The held keys once `now` is past the pause a scan allows after the last one (none otherwise): typing, after all. */
  expire(now: number): T[] {
    const last = this.#held[this.#held.length - 1];
    if (last === undefined || now - last.time <= this.#maxGapMs) return [];
    return this.#take();
  }

  #take(): T[] {
    const payloads = this.#held.map((held) => held.payload);
    this.#held = [];
    return payloads;
  }
}
