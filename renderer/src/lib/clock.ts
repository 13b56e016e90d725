import type { Language } from '../../../shared/kiosk-names.ts';

// issue 17 "one clock for the counter": every time the kiosk shows or prints (History, Reports, the Z report, the
// receipt, the sign-in screen) reads the same clock. Chromium's ICU writes es-AR/es-CL/es-UY times on the 12-hour
// clock ("02:59 p. m."), while stores, receipts and the platform's own app in those countries use the 24-hour clock
// ("14:59"), as pt-BR already does; English keeps its locale's own. Dates and times are the renderer's local time, as
// the Z report's day is (local midnight to midnight).
const FORMATS = {
  /** "14:59" */
  time: { hour: '2-digit', minute: '2-digit' },
  /** "24/11/26, 14:59" */
  dateTime: { dateStyle: 'short', timeStyle: 'short' },
  /** "24 nov, 14:59": a time on another day than the one shown, in the same year. */
  dayTime: { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' },
  /** "martes, 24 de noviembre de 2026" */
  day: { dateStyle: 'full' },
  /** "mar, 24 de noviembre de 2026" */
  dayLong: { weekday: 'short', day: 'numeric', month: 'long', year: 'numeric' },
  /** "mar, 24 nov 2026" */
  dayShort: { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

export type ClockFormat = keyof typeof FORMATS;
/** Each format as a function of an instant: an ISO string or epoch ms. */
export type Clock = Record<ClockFormat, (when: string | number) => string>;

const clocks = new Map<Language, Clock>();

/**
 * The clock of `locale`. Its Intl formatters are built on first use and kept per locale: building one costs far more
 * than formatting with it, and History formats hundreds of rows.
 */
export function clockFor(locale: Language): Clock {
  let clock = clocks.get(locale);
  if (!clock) {
    const hourCycle = locale.startsWith('en') ? undefined : 'h23';
    const made: Partial<Record<ClockFormat, Intl.DateTimeFormat>> = {};
    const format = (name: ClockFormat) => (when: string | number) =>
      (made[name] ??= new Intl.DateTimeFormat(locale, { ...FORMATS[name], hourCycle })).format(new Date(when));
    clock = Object.fromEntries(Object.keys(FORMATS).map((name) => [name, format(name as ClockFormat)])) as Clock;
    clocks.set(locale, clock);
  }
  return clock;
}
