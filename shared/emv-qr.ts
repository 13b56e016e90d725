// EMVCo merchant-presented QR payloads, the format of an order's type_response.qr_data (seed 2.5,
// platform-facts "QR data"). The sandbox builds them and the kiosk reads them back, so both sides share this code.
import type { Currency } from './money.ts';

export interface EmvField {
  tag: string;
  value: string | EmvField[];
}

export type EmvParseResult = { ok: true; fields: EmvField[] } | { ok: false; reason: string };

/**
 * The fields `buildMerchantQr` writes and `parseMerchantQr` reads; see platform-facts "QR data".
 * Invariants after `normalizeMerchantQr`: merchantName 1–25 and merchantCity 1–15 printable ASCII characters,
 * qrId a UUID, countryCode two uppercase letters, merchantCategoryCode four digits, reference 1–64 printable ASCII.
 */
export interface MerchantQr {
  /** Tag 01: "11" static, "12" dynamic. */
  pointOfInitiation: 'static' | 'dynamic';
  /** Tag 43 sub-tag 06: a UUID identifying the QR. */
  qrId: string;
  /** Tag 53, written as the ISO 4217 numeric code. */
  currency: Currency;
  /** Tag 58. */
  countryCode: string;
  /** Tag 59, at most 25 characters. */
  merchantName: string;
  /** Tag 60, at most 15 characters. */
  merchantCity: string;
  /** Tag 52; DEFAULT_MERCHANT_CATEGORY_CODE when absent. */
  merchantCategoryCode?: string;
  /** Tag 62 (additional data) sub-tag 05 (reference label), e.g. an order id. */
  reference?: string;
}

export type MerchantQrResult = { ok: true; qr: MerchantQr } | { ok: false; reason: string };

/** platform-facts "QR data": the real dynamic-order example carries MCC 9700, so an unset MCC matches it. */
export const DEFAULT_MERCHANT_CATEGORY_CODE = '9700';

/** platform-facts "QR data": ISO 4217 numeric codes in tag 53. */
const CURRENCY_NUMERIC: Record<Currency, string> = { ARS: '032', BRL: '986', CLP: '152', UYU: '858' };

const TAG = {
  payloadFormat: '00',
  pointOfInitiation: '01',
  merchantAccount: '43',
  merchantCategoryCode: '52',
  currency: '53',
  countryCode: '58',
  merchantName: '59',
  merchantCity: '60',
  additionalData: '62',
  crc: '63',
} as const;

/** Sub-tags of tag 43, as in the platform-facts example: 00 the network's reverse domain, 02 "3", 06 the QR's UUID. */
const ACCOUNT_SUBTAG = { domain: '00', kind: '02', qrId: '06' } as const;
const ACCOUNT_DOMAIN = 'com.mercadolibre';
/** Copied from the platform-facts example (sub-tag 02, length 01, value "3"); its meaning is not documented. */
const ACCOUNT_KIND = '3';
const REFERENCE_SUBTAG = '05';
const POINT_OF_INITIATION = { static: '11', dynamic: '12' } as const;

const MAX_NAME = 25;
const MAX_CITY = 15;
/**
 * EMVCo caps the reference label at 25, but the brief's use is an order id (29 characters) and seed 2.5 allows
 * external_reference up to 64, so we allow 64; it still fits tag 62's 99-character limit.
 */
const MAX_REFERENCE = 64;
const MAX_VALUE_LENGTH = 99;

const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) over the character codes,
 * as 4 uppercase hex digits (platform-facts "QR data"). Throws RangeError for non-ASCII text, whose bytes
 * would depend on an encoding the payload never names.
 */
export function crc16Ccitt(text: string): string {
  let crc = 0xffff;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) throw new RangeError(`CRC input must be ASCII; character ${i} is U+${code.toString(16).padStart(4, '0')}`);
    crc ^= code << 8;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * Encodes fields as TTLLVALUE, templates (array values) encoded recursively.
 * Throws RangeError when a tag is not two digits, a value is longer than 99 characters, or a value has a
 * character outside printable ASCII (the CRC is defined over ASCII).
 */
export function encodeEmvFields(fields: EmvField[]): string {
  return fields
    .map((field) => {
      if (!/^[0-9]{2}$/.test(field.tag)) throw new RangeError(`EMV tag must be two digits, got ${JSON.stringify(field.tag)}`);
      const value = typeof field.value === 'string' ? field.value : encodeEmvFields(field.value);
      if (value.length > MAX_VALUE_LENGTH) {
        throw new RangeError(`EMV tag ${field.tag} value is ${value.length} characters; the limit is ${MAX_VALUE_LENGTH}`);
      }
      if (!PRINTABLE_ASCII.test(value)) throw new RangeError(`EMV tag ${field.tag} value must be printable ASCII`);
      return `${field.tag}${String(value.length).padStart(2, '0')}${value}`;
    })
    .join('');
}

/**
 * Flat TTLLVALUE parse: every value is returned as a string, even a template's (decode it again to descend).
 * Fails when a tag or length is not two digits, a length runs past the end, or the text is not printable ASCII.
 * Empty text is zero fields.
 */
export function decodeEmvFields(text: string): EmvParseResult {
  if (typeof text !== 'string') return { ok: false, reason: 'EMV data must be a string' };
  if (!PRINTABLE_ASCII.test(text)) return { ok: false, reason: 'EMV data must be printable ASCII' };
  const fields: EmvField[] = [];
  let at = 0;
  while (at < text.length) {
    const tag = text.slice(at, at + 2);
    const lengthText = text.slice(at + 2, at + 4);
    if (!/^[0-9]{2}$/.test(tag)) return { ok: false, reason: `expected a two-digit tag at position ${at}, found ${JSON.stringify(tag)}` };
    if (!/^[0-9]{2}$/.test(lengthText)) {
      return { ok: false, reason: `expected a two-digit length for tag ${tag} at position ${at + 2}, found ${JSON.stringify(lengthText)}` };
    }
    const length = Number(lengthText);
    const start = at + 4;
    if (start + length > text.length) {
      return { ok: false, reason: `tag ${tag} declares ${length} characters but only ${text.length - start} remain` };
    }
    fields.push({ tag, value: text.slice(start, start + length) });
    at = start + length;
  }
  return { ok: true, fields };
}

/**
 * Encodes `fields` and appends tag 63: "6304" plus the CRC of everything before it including "6304"
 * (platform-facts "QR data"). Throws RangeError as encodeEmvFields does, or when `fields` already has tag 63.
 */
export function buildEmvPayload(fields: EmvField[]): string {
  if (fields.some((f) => f.tag === TAG.crc)) throw new RangeError('tag 63 (CRC) is added by buildEmvPayload; do not pass it');
  const body = `${encodeEmvFields(fields)}${TAG.crc}04`;
  return body + crc16Ccitt(body);
}

/**
 * Parses a whole payload: its structure, tag 63 being the last field (and only there) with length 04, and
 * the CRC matching (reason "CRC mismatch ..." when not; hex case is not significant).
 * Success returns the fields before tag 63, so parseEmvPayload(buildEmvPayload(fields)) gives back flat fields.
 */
export function parseEmvPayload(payload: string): EmvParseResult {
  const decoded = decodeEmvFields(payload);
  if (!decoded.ok) return decoded;
  const fields = decoded.fields;
  const last = fields[fields.length - 1];
  if (last === undefined || last.tag !== TAG.crc) return { ok: false, reason: 'the payload must end with tag 63 (CRC)' };
  // decodeEmvFields returns flat string values, and the last value ends the payload.
  const declared = String(last.value);
  if (declared.length !== 4) return { ok: false, reason: `tag 63 (CRC) must have length 04, got ${declared.length}` };
  const body = fields.slice(0, -1);
  if (body.some((f) => f.tag === TAG.crc)) return { ok: false, reason: 'tag 63 (CRC) must appear only once, as the last field' };
  if (!/^[0-9A-Fa-f]{4}$/.test(declared)) return { ok: false, reason: `CRC ${declared} is not 4 hex digits` };
  const computed = crc16Ccitt(payload.slice(0, -4));
  if (declared.toUpperCase() !== computed) return { ok: false, reason: `CRC mismatch: payload says ${declared}, computed ${computed}` };
  return { ok: true, fields: body };
}

/**
 * The form buildMerchantQr writes and parseMerchantQr returns: name and city reduced to printable ASCII
 * (diacritics stripped, other characters replaced by a space, trimmed, truncated to 25/15, "Merchant"/"City"
 * when nothing is left), the MCC defaulted, and `reference` present only when given.
 */
export function normalizeMerchantQr(qr: MerchantQr): MerchantQr {
  const normalized: MerchantQr = {
    pointOfInitiation: qr.pointOfInitiation,
    qrId: qr.qrId,
    currency: qr.currency,
    countryCode: qr.countryCode,
    merchantName: toPrintableAscii(qr.merchantName, MAX_NAME, 'Merchant'),
    merchantCity: toPrintableAscii(qr.merchantCity, MAX_CITY, 'City'),
    merchantCategoryCode: qr.merchantCategoryCode ?? DEFAULT_MERCHANT_CATEGORY_CODE,
  };
  if (qr.reference !== undefined) normalized.reference = qr.reference;
  return normalized;
}

/**
 * Builds the payload of platform-facts "QR data", in the example's order: 00 "01", 01, 43 (00 com.mercadolibre,
 * 02 "3", 06 qrId), 52, 53, 58, 59, 60, optional 62 (05 reference), then 63. Tag 50 of the example is left out:
 * its content ("32659430", apparently the seller's account) is not documented and MerchantQr has no such field.
 * Throws RangeError for a non-UUID qrId, an unknown currency, a country code that is not two uppercase letters,
 * an MCC that is not four digits, or a reference that is empty, longer than 64 or not printable ASCII.
 */
export function buildMerchantQr(qr: MerchantQr): string {
  const n = normalizeMerchantQr(qr);
  if (!UUID.test(n.qrId)) throw new RangeError(`qrId must be a UUID, got ${JSON.stringify(n.qrId)}`);
  if (!Object.hasOwn(CURRENCY_NUMERIC, n.currency)) throw new RangeError(`unknown currency ${JSON.stringify(n.currency)}`);
  if (!/^[A-Z]{2}$/.test(n.countryCode)) throw new RangeError(`countryCode must be two uppercase letters, got ${JSON.stringify(n.countryCode)}`);
  const mcc = n.merchantCategoryCode ?? DEFAULT_MERCHANT_CATEGORY_CODE;
  if (!/^[0-9]{4}$/.test(mcc)) throw new RangeError(`merchantCategoryCode must be four digits, got ${JSON.stringify(mcc)}`);
  if (n.pointOfInitiation !== 'static' && n.pointOfInitiation !== 'dynamic') {
    throw new RangeError(`pointOfInitiation must be static or dynamic, got ${JSON.stringify(n.pointOfInitiation)}`);
  }
  const referenceProblem = n.reference === undefined ? undefined : checkReference(n.reference);
  if (referenceProblem !== undefined) throw new RangeError(referenceProblem);

  const fields: EmvField[] = [
    { tag: TAG.payloadFormat, value: '01' },
    { tag: TAG.pointOfInitiation, value: POINT_OF_INITIATION[n.pointOfInitiation] },
    {
      tag: TAG.merchantAccount,
      value: [
        { tag: ACCOUNT_SUBTAG.domain, value: ACCOUNT_DOMAIN },
        { tag: ACCOUNT_SUBTAG.kind, value: ACCOUNT_KIND },
        { tag: ACCOUNT_SUBTAG.qrId, value: n.qrId },
      ],
    },
    { tag: TAG.merchantCategoryCode, value: mcc },
    { tag: TAG.currency, value: CURRENCY_NUMERIC[n.currency] },
    { tag: TAG.countryCode, value: n.countryCode },
    { tag: TAG.merchantName, value: n.merchantName },
    { tag: TAG.merchantCity, value: n.merchantCity },
  ];
  if (n.reference !== undefined) {
    fields.push({ tag: TAG.additionalData, value: [{ tag: REFERENCE_SUBTAG, value: n.reference }] });
  }
  return buildEmvPayload(fields);
}

/**
 * Reads a merchant QR payload. Success gives the values in normalized form (see normalizeMerchantQr).
 * Fails, with a reason, on a bad structure or CRC (via parseEmvPayload), a duplicated tag, tag 00 not first
 * with "01", a missing or unknown tag 01, tag 43 missing, not com.mercadolibre, or without a UUID in sub-tag 06,
 * an MCC that is not four digits, an unknown ISO 4217 numeric currency, a bad country code, a merchant name or
 * city that is empty or too long, or a reference (62/05) that buildMerchantQr would refuse. Unknown tags
 * (such as the example's 50) are ignored.
 */
export function parseMerchantQr(payload: string): MerchantQrResult {
  const parsed = parseEmvPayload(payload);
  if (!parsed.ok) return parsed;
  const top = indexFields(parsed.fields, 'payload');
  if (typeof top === 'string') return fail(top);

  if (parsed.fields[0]?.tag !== TAG.payloadFormat || top.get(TAG.payloadFormat) !== '01') {
    return fail('tag 00 (payload format indicator) must come first with value 01');
  }

  const initiation = top.get(TAG.pointOfInitiation);
  let pointOfInitiation: MerchantQr['pointOfInitiation'];
  if (initiation === POINT_OF_INITIATION.static) pointOfInitiation = 'static';
  else if (initiation === POINT_OF_INITIATION.dynamic) pointOfInitiation = 'dynamic';
  else if (initiation === undefined) return fail('missing tag 01 (point of initiation)');
  else return fail(`tag 01 (point of initiation) must be 11 or 12, got ${JSON.stringify(initiation)}`);

  const accountText = top.get(TAG.merchantAccount);
  if (accountText === undefined) return fail('missing tag 43 (merchant account information)');
  const accountFields = decodeEmvFields(accountText);
  if (!accountFields.ok) return fail(`tag 43 is not a valid template: ${accountFields.reason}`);
  const account = indexFields(accountFields.fields, 'tag 43');
  if (typeof account === 'string') return fail(account);
  const domain = account.get(ACCOUNT_SUBTAG.domain);
  if (domain !== ACCOUNT_DOMAIN) return fail(`tag 43 sub-tag 00 must be ${ACCOUNT_DOMAIN}, got ${JSON.stringify(domain ?? null)}`);
  const qrId = account.get(ACCOUNT_SUBTAG.qrId);
  if (qrId === undefined) return fail('missing tag 43 sub-tag 06 (QR id)');
  if (!UUID.test(qrId)) return fail(`tag 43 sub-tag 06 (QR id) must be a UUID, got ${JSON.stringify(qrId)}`);

  const mcc = top.get(TAG.merchantCategoryCode);
  if (mcc === undefined) return fail('missing tag 52 (merchant category code)');
  if (!/^[0-9]{4}$/.test(mcc)) return fail(`tag 52 (merchant category code) must be four digits, got ${JSON.stringify(mcc)}`);

  const numeric = top.get(TAG.currency);
  if (numeric === undefined) return fail('missing tag 53 (currency)');
  const currency = (Object.keys(CURRENCY_NUMERIC) as Currency[]).find((c) => CURRENCY_NUMERIC[c] === numeric);
  if (currency === undefined) return fail(`tag 53 has unknown currency numeric code ${JSON.stringify(numeric)}; expected 032, 986, 152 or 858`);

  const countryCode = top.get(TAG.countryCode);
  if (countryCode === undefined) return fail('missing tag 58 (country code)');
  if (!/^[A-Z]{2}$/.test(countryCode)) return fail(`tag 58 (country code) must be two uppercase letters, got ${JSON.stringify(countryCode)}`);

  const merchantName = top.get(TAG.merchantName);
  if (merchantName === undefined) return fail('missing tag 59 (merchant name)');
  if (merchantName.length === 0 || merchantName.length > MAX_NAME) {
    return fail(`tag 59 (merchant name) must be 1 to ${MAX_NAME} characters, got ${merchantName.length}`);
  }
  const merchantCity = top.get(TAG.merchantCity);
  if (merchantCity === undefined) return fail('missing tag 60 (merchant city)');
  if (merchantCity.length === 0 || merchantCity.length > MAX_CITY) {
    return fail(`tag 60 (merchant city) must be 1 to ${MAX_CITY} characters, got ${merchantCity.length}`);
  }

  const qr: MerchantQr = { pointOfInitiation, qrId, currency, countryCode, merchantName, merchantCity, merchantCategoryCode: mcc };

  const additionalText = top.get(TAG.additionalData);
  if (additionalText !== undefined) {
    const additionalFields = decodeEmvFields(additionalText);
    if (!additionalFields.ok) return fail(`tag 62 is not a valid template: ${additionalFields.reason}`);
    const additional = indexFields(additionalFields.fields, 'tag 62');
    if (typeof additional === 'string') return fail(additional);
    const reference = additional.get(REFERENCE_SUBTAG);
    if (reference !== undefined) {
      const problem = checkReference(reference);
      if (problem !== undefined) return fail(`tag 62 sub-tag 05: ${problem}`);
      qr.reference = reference;
    }
  }
  return { ok: true, qr };
}

function fail(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

/** A tag appearing twice would make the payload ambiguous, so it is refused rather than resolved. */
function indexFields(fields: EmvField[], where: string): Map<string, string> | string {
  const byTag = new Map<string, string>();
  for (const field of fields) {
    if (byTag.has(field.tag)) return `${where} has tag ${field.tag} more than once`;
    byTag.set(field.tag, String(field.value));
  }
  return byTag;
}

function checkReference(reference: string): string | undefined {
  if (reference.length === 0 || reference.length > MAX_REFERENCE) {
    return `reference must be 1 to ${MAX_REFERENCE} characters, got ${reference.length}`;
  }
  if (!PRINTABLE_ASCII.test(reference)) return 'reference must be printable ASCII';
  return undefined;
}

/** EMVCo names and cities are ASCII; keep the letters of "Panadería São João" rather than dropping words. */
function toPrintableAscii(text: string, max: number, fallback: string): string {
  const ascii = String(text)
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7E]/gu, ' ')
    .trim()
    .slice(0, max)
    .trimEnd();
  return ascii === '' ? fallback : ascii;
}
