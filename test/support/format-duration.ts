// The canonical ISO 8601 text of a duration (seed 4.3), the inverse of shared/duration.ts's parseDuration. Only the
// tests write durations (to check that parsing reads back what is written), so it lives here (issue 13: no test-only
// code in production modules).

const SECONDS_PER_DAY = 86_400;
const SECONDS_PER_HOUR = 3_600;
const SECONDS_PER_MINUTE = 60;
/** parseDuration's bound: at most ten digits per component. */
const MAX_DAYS = 10 ** 10 - 1;

/**
 * Canonical ISO 8601 form of `seconds`: days, then hours, minutes and seconds, zero components left out
 * (900 → "PT15M", 5400 → "PT1H30M", 90000 → "P1DT1H", 0 → "PT0S"). Weeks are never written, so
 * 604800 → "P7D". Throws RangeError for negative or non-finite input, more than 3 decimals, or a value
 * parseDuration would refuse (more than 10 digits of days).
 */
export function formatDuration(seconds: number): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) {
    throw new RangeError(`duration must be a finite number of seconds, got ${String(seconds)}`);
  }
  if (seconds < 0) throw new RangeError(`duration must not be negative, got ${seconds}`);
  if (!Number.isSafeInteger(Math.floor(seconds))) throw new RangeError(`duration ${seconds} is too large`);
  // The shortest decimal text of the number is what parseDuration reads back to the same number; below
  // MAX_SAFE_INTEGER it only uses an exponent for tiny fractions (1e-7), which have too many decimals anyway.
  const written = /^([0-9]+)(?:\.([0-9]+))?$/.exec(String(Math.abs(seconds)));
  const wholeText = written?.[1];
  const fraction = written?.[2];
  if (wholeText === undefined || (fraction !== undefined && fraction.length > 3)) {
    throw new RangeError(`duration ${seconds} has more than 3 decimals`);
  }
  const whole = Number(wholeText);
  const days = Math.floor(whole / SECONDS_PER_DAY);
  if (days > MAX_DAYS) throw new RangeError(`duration ${seconds} is too large`);
  let rest = whole - days * SECONDS_PER_DAY;
  const hours = Math.floor(rest / SECONDS_PER_HOUR);
  rest -= hours * SECONDS_PER_HOUR;
  const minutes = Math.floor(rest / SECONDS_PER_MINUTE);
  const secs = rest - minutes * SECONDS_PER_MINUTE;

  let time = '';
  if (hours > 0) time += `${hours}H`;
  if (minutes > 0) time += `${minutes}M`;
  if (fraction !== undefined) time += `${secs}.${fraction}S`;
  else if (secs > 0) time += `${secs}S`;
  const date = days > 0 ? `${days}D` : '';
  if (date === '' && time === '') return 'PT0S';
  return time === '' ? `P${date}` : `P${date}T${time}`;
}
