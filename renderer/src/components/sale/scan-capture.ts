import { ScanDetector } from './scan-detector.ts';

/**
 * How long after the last key held keys wait before they are given back as typing. Longer than a scanner's pause
 * (SCAN_MAX_GAP_MS, read from the keys' own timestamps) because the timer runs on the page's clock: on a busy counter
 * PC a scanner's next key may be handled later than it was pressed, and giving the burst back too soon would split it.
 * Under a tenth of a second, so a person's last digit still shows at once.
 */
export const SCAN_RELEASE_MS = 100;

/**
 * A keyboard-wedge scanner on a screen (issue 29 "Scanner": it works whatever has focus). One capture listener on the
 * window sees every keydown before any field, button or screen handler does; the keys that may be a scan are held
 * back (scan-detector.ts). A scan goes to `onScan` and none of its keys go anywhere else; keys that turn out to be
 * typing are given back to where they were aimed, in order, a few milliseconds late: the same keydown is dispatched
 * again at the element it was aimed at (so the Sale screen's amount, the keypad and the PIN pad read it as before),
 * and a character a text field did not take is inserted into it, as the browser would have.
 * Returns the function that removes the listener (pending keys are given back first).
 */
export function captureScans(onScan: (code: string) => void): () => void {
  const detector = new ScanDetector<Held>();
  const replayed = new WeakSet<Event>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const release = (keys: readonly Held[]): void => {
    for (const held of keys) replay(held, replayed);
  };
  const schedule = (): void => {
    clearTimeout(timer);
    if (!detector.holding) return;
    timer = setTimeout(() => {
      release(detector.expire(performance.now()));
      schedule();
    }, SCAN_RELEASE_MS);
  };

  const onKeydown = (event: KeyboardEvent): void => {
    if (replayed.has(event) || event.isComposing) return;
    const step = detector.key({ key: event.key, time: event.timeStamp, ctrlKey: event.ctrlKey, altKey: event.altKey, metaKey: event.metaKey, repeat: event.repeat, payload: heldOf(event) });
    release(step.release);
    if (step.action !== 'pass') {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
    if (step.action === 'scan') onScan(step.code);
    schedule();
  };

  window.addEventListener('keydown', onKeydown, true);
  return () => {
    window.removeEventListener('keydown', onKeydown, true);
    clearTimeout(timer);
    release(detector.expire(Number.POSITIVE_INFINITY));
  };
}

/** A held key: what is needed to dispatch it again where it was aimed. */
interface Held {
  target: EventTarget | null;
  init: KeyboardEventInit;
}

function heldOf(event: KeyboardEvent): Held {
  const { key, code, location, shiftKey, repeat } = event;
  return { target: event.target, init: { key, code, location, shiftKey, repeat, bubbles: true, cancelable: true, composed: true } };
}

function replay(held: Held, replayed: WeakSet<Event>): void {
  // The element may have gone meanwhile (a dialog closed): the key then goes where focus is now.
  const aimed = held.target instanceof Node && held.target.isConnected ? held.target : (document.activeElement ?? document.body);
  const event = new KeyboardEvent('keydown', held.init);
  replayed.add(event);
  const taken = !aimed.dispatchEvent(event);
  if (taken) return;
  const key = held.init.key ?? '';
  if (aimed instanceof HTMLInputElement || aimed instanceof HTMLTextAreaElement) {
    if (aimed.readOnly || aimed.disabled) return;
    // A dispatched keydown types nothing (only the browser's own does): insert the character, then tell the field.
    try {
      aimed.setRangeText(key, aimed.selectionStart ?? aimed.value.length, aimed.selectionEnd ?? aimed.value.length, 'end');
    } catch {
      // A field without a text selection (type=number, email) cannot take a character this way; it keeps its value.
      return;
    }
    aimed.dispatchEvent(new Event('input', { bubbles: true }));
  }
}
