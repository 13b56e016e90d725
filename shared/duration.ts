// ISO 8601 durations as used by the order's expiration_time (seed 2.5, 4.3: "PT5M"; min 30 s, max 3600 h).
// Only components with a fixed length in seconds are accepted, because an expiry has to become an instant.
// The seed 4.3 bounds are the caller's to check: this module only turns text into seconds.

export type DurationResult = { ok: true; seconds: number } | { ok: false; reason: string };

const SECONDS_PER_WEEK = 604_800;
const SECONDS_PER_DAY = 86_400;
const SECONDS_PER_HOUR = 3_600;
const SECONDS_PER_MINUTE = 60;

/** A bound of our own: ten digits keep every accepted total below Number.MAX_SAFE_INTEGER. */
const MAX_COMPONENT_DIGITS = 10;

/** PnW alone, or P[nD][T[nH][nM][n[(.|,)fff]S]]; ISO 8601 allows a fraction on the last component, we allow it on S only. */
const DURATION = /^P(?:([0-9]+)W|(?:([0-9]+)D)?(?:T(?:([0-9]+)H)?(?:([0-9]+)M)?(?:([0-9]+)(?:[.,]([0-9]{1,3}))?S)?)?)$/;

/**
 * Parses an ISO 8601 duration into seconds.
 * Success: `{ ok: true, seconds }`, fractional only when the S component has a fraction.
 * Failure: `{ ok: false, reason }` for years or months (no fixed length), negatives, lowercase, whitespace,
 * an empty "P" or "PT", a "T" without a time component, more than 3 decimals, a component over 10 digits,
 * or anything else that is not a duration.
 */
export function parseDuration(text: string): DurationResult {
  if (typeof text !== 'string') return { ok: false, reason: 'duration must be a string' };
  const match = DURATION.exec(text);
  if (!match) return { ok: false, reason: describeFormatError(text) };
  const [, weeks, days, hours, minutes, wholeSeconds, fraction] = match;
  const components = [weeks, days, hours, minutes, wholeSeconds];
  if (components.every((c) => c === undefined)) {
    return { ok: false, reason: `duration ${text} has no components; write e.g. PT5M` };
  }
  if (text.includes('T') && hours === undefined && minutes === undefined && wholeSeconds === undefined) {
    return { ok: false, reason: `duration ${text} has a T with no hours, minutes or seconds after it` };
  }
  if (components.some((c) => c !== undefined && c.length > MAX_COMPONENT_DIGITS)) {
    return { ok: false, reason: `duration ${text} has a component with more than ${MAX_COMPONENT_DIGITS} digits` };
  }
  const whole =
    toInt(weeks) * SECONDS_PER_WEEK +
    toInt(days) * SECONDS_PER_DAY +
    toInt(hours) * SECONDS_PER_HOUR +
    toInt(minutes) * SECONDS_PER_MINUTE +
    toInt(wholeSeconds);
  // Parsing the decimal text gives the closest double to the written value, which adding a fraction would not.
  const seconds = fraction === undefined ? whole : Number(`${whole}.${fraction}`);
  return { ok: true, seconds };
}

function toInt(digits: string | undefined): number {
  return digits === undefined ? 0 : Number(digits);
}

function describeFormatError(text: string): string {
  const hint = 'must be an ISO 8601 duration such as PT5M, PT1H30M, P1D or P2W';
  if (text === '') return `duration is empty; ${hint}`;
  if (/\s/.test(text)) return `duration ${JSON.stringify(text)} contains whitespace; ${hint}`;
  if (text.includes('-')) return `duration ${text} is negative or has a sign; durations must be positive`;
  if (/[a-z]/.test(text)) return `duration ${text} must be written in uppercase, e.g. PT5M`;
  if (!text.startsWith('P')) return `duration ${text} must start with P; ${hint}`;
  const datePart = text.slice(1).split('T')[0] ?? '';
  if (/[0-9]Y/.test(datePart) || /[0-9]M/.test(datePart)) {
    return `duration ${text} uses years or months, which have no fixed length in seconds; use days, hours, minutes or seconds`;
  }
  if (/W/.test(text) && /[DHMS]/.test(text)) return `duration ${text} mixes weeks with other components; use PnW alone or days`;
  if (/[.,][0-9]*[WDHM]/.test(text)) return `duration ${text} has a fraction outside the seconds component`;
  if (/[.,][0-9]{4,}S$/.test(text)) return `duration ${text} has more than 3 decimals of seconds`;
  return `duration ${JSON.stringify(text)} ${hint}`;
}
