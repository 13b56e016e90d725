import type { Language } from '../../../shared/kiosk-names.ts';

/**
 * The on-screen text keyboard's rules as pure functions (TextKeyboard.svelte holds the state), so node:test checks them
 * without the Svelte compiler (issue 15 "Keyboards": one-shot shift, capital first letter, accents on the first page).
 */

/** Shift as phones have it: `once` makes the next letter a capital and then returns to `off`; `lock` stays on. */
export type ShiftState = 'off' | 'once' | 'lock';

/** Two taps on shift closer than this are a double tap (caps lock), as on Gboard and iOS. */
export const DOUBLE_TAP_MS = 400;

/**
 * Shift after a tap on it at `now` (ms), the previous tap having been at `lastTap` (null when another key came between):
 * a double tap locks, a tap while locked or shifted turns it off, a tap while off shifts the next letter only.
 */
export function tapShift(state: ShiftState, now: number, lastTap: number | null): ShiftState {
  if (lastTap !== null && now - lastTap < DOUBLE_TAP_MS && state !== 'lock') return 'lock';
  return state === 'off' ? 'once' : 'off';
}

/** True where a capital letter comes next: an empty field, or after a sentence's end and a space ("Hola. |"). */
export function startsSentence(text: string): boolean {
  return text.trim() === '' || /[.!?¡¿]\s+$/.test(text) || /[¡¿]$/.test(text);
}

/**
 * Shift after typing (a character or a deletion) gave `text`: a lock stays; otherwise it is `once` where a sentence
 * starts and the field capitalizes sentences, else `off` (the one-shot is spent).
 */
export function shiftAfter(state: ShiftState, text: string, capitalize: boolean): ShiftState {
  if (state === 'lock') return 'lock';
  return capitalize && startsSentence(text) ? 'once' : 'off';
}

/**
 * The letter rows of each language, as its hardware layout has them (ñ beside l on a Spanish keyboard, ç on a Brazilian
 * ABNT2 one), and the accents row shown on the first page, so "Café" is C-a-f-é and not a trip to the symbols page.
 * es: the accents Spanish uses (ñ is on the home row). pt: Portuguese's acute, circumflex, tilde and grave vowels (ç is
 * on the home row). en: the kiosk sells in Argentina, Brazil, Chile and Uruguay, so an English screen still types
 * Spanish or Portuguese names; it gets the Spanish set with ñ (three of the four countries), and the rest of the
 * accents are on the symbols page for every language.
 */
export interface LetterLayout {
  rows: readonly string[];
  accents: string;
}

const LAYOUTS: Record<'es' | 'pt' | 'en', LetterLayout> = {
  es: { rows: ['qwertyuiop', 'asdfghjklñ', 'zxcvbnm'], accents: 'áéíóúü' },
  pt: { rows: ['qwertyuiop', 'asdfghjklç', 'zxcvbnm'], accents: 'áâãàéêíóôõú' },
  en: { rows: ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'], accents: 'áéíóúñü' },
};

export function letterLayout(language: Language): LetterLayout {
  return LAYOUTS[language === 'en' ? 'en' : language === 'pt-BR' ? 'pt' : 'es'];
}

/** Every accented letter the keyboard offers: those not on the first page are on the symbols page. */
const ALL_ACCENTS = 'áéíóúãõâêôàçñü';

/** The accented letters of the symbols page for `language`: the ones its first page does not have. */
export function symbolsPageAccents(language: Language): string {
  const { rows, accents } = letterLayout(language);
  const first = rows.join('') + accents;
  return [...ALL_ACCENTS].filter((char) => !first.includes(char)).join('');
}
