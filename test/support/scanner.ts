// issue 29 "Scanner": a keyboard-wedge scanner played by a browser test. A real scanner's keys reach the page a few
// milliseconds apart and carry the time they were pressed; Playwright's keyboard.type({ delay }) sends each key after
// the previous one's round trip, which on a loaded machine is 50–200 ms, slower than a person. So the keys go through
// the DevTools protocol's Input.dispatchKeyEvent with their press time set (the page's event.timeStamp), all sent at
// once without waiting for each answer (the protocol keeps their order): trusted key events queued at the page as a
// USB scanner's are, at scanner speed however busy the machine is.
import type { Page } from 'playwright-core';

/** A wedge scanner's pause between keys. */
export const SCANNER_KEY_MS = 5;

interface KeyDef {
  key: string;
  code: string;
  text: string;
  keyCode: number;
  shift: boolean;
}

function keyOf(char: string): KeyDef {
  if (/^[0-9]$/.test(char)) return { key: char, code: `Digit${char}`, text: char, keyCode: char.charCodeAt(0), shift: false };
  if (/^[a-z]$/.test(char)) return { key: char, code: `Key${char.toUpperCase()}`, text: char, keyCode: char.toUpperCase().charCodeAt(0), shift: false };
  if (/^[A-Z]$/.test(char)) return { key: char, code: `Key${char}`, text: char, keyCode: char.charCodeAt(0), shift: true };
  if (char === '-') return { key: '-', code: 'Minus', text: '-', keyCode: 189, shift: false };
  if (char === '_') return { key: '_', code: 'Minus', text: '_', keyCode: 189, shift: true };
  throw new Error(`the test scanner cannot type ${JSON.stringify(char)}`);
}

/**
 * Types `code` as a wedge scanner does, `gapMs` apart by the keys' own timestamps, then `suffix` (Enter or Tab), into
 * whatever has focus on `page`.
 */
export async function scanCode(page: Page, code: string, options: { gapMs?: number; suffix?: 'Enter' | 'Tab' } = {}): Promise<void> {
  const gap = (options.gapMs ?? SCANNER_KEY_MS) / 1000;
  const session = await page.context().newCDPSession(page);
  try {
    let at = Date.now() / 1000;
    const sent: Array<Promise<unknown>> = [];
    const send = (type: 'keyDown' | 'keyUp', def: Omit<KeyDef, 'shift'>, modifiers: number): void => {
      sent.push(session.send('Input.dispatchKeyEvent', {
        type,
        key: def.key,
        code: def.code,
        windowsVirtualKeyCode: def.keyCode,
        modifiers,
        timestamp: at,
        ...(type === 'keyDown' && def.text ? { text: def.text, unmodifiedText: def.text } : {}),
      }));
    };
    for (const char of code) {
      const def = keyOf(char);
      send('keyDown', def, def.shift ? 8 : 0);
      send('keyUp', def, def.shift ? 8 : 0);
      at += gap;
    }
    const suffix = options.suffix ?? 'Enter';
    const end = suffix === 'Enter' ? { key: 'Enter', code: 'Enter', text: '\r', keyCode: 13 } : { key: 'Tab', code: 'Tab', text: '', keyCode: 9 };
    send('keyDown', end, 0);
    send('keyUp', end, 0);
    await Promise.all(sent);
  } finally {
    await session.detach();
  }
}
