import { buildMerchantQr, type MerchantQr } from '../../shared/emv-qr.ts';
import { sameFields } from '../../shared/same-fields.ts';

/**
 * buildMerchantQr for the order path, faster (issue 7: it was the largest single cost of POST /v1/orders). For one
 * seller and one reference length, every character of the payload except the QR id, the reference and the CRC is the
 * same, so the payload is built once by buildMerchantQr itself with placeholders, and each order only writes its QR id
 * and reference into their places and recomputes the CRC (platform-facts "QR data"). The layout stays whatever
 * shared/emv-qr.ts writes: the places are found by building with two different placeholders and comparing. Inputs
 * buildMerchantQr would refuse go to it, so they fail exactly as before.
 */
interface Template {
  body: string;
  qrIdAt: number;
  referenceAt: number;
  /**
   * The body and room for the CRC as latin1 bytes, when the body is printable ASCII (issue 14 round 3): an order writes
   * its QR id and reference over their places, the CRC is computed over the bytes and written after them, and the
   * payload is read back as one flat string; no slices, concatenations or flattening, and no string tree kept with the
   * order. Every other byte is the template's and is never written, so the buffer is reused order after order.
   */
  bytes: Buffer | null;
}

const QR_ID_A = '00000000-0000-4000-8000-000000000000';
const QR_ID_B = '11111111-1111-4111-9111-111111111111';
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const PRINTABLE_ASCII = /^[\x20-\x7E]+$/;
/** platform-facts "QR data" / shared/emv-qr.ts: a reference label is 1–64 printable ASCII characters. */
const MAX_REFERENCE = 64;
/** Sellers × reference lengths; a sandbox has a handful. Past this the cache starts over rather than grow. */
const MAX_TEMPLATES = 1000;
const CRC_TAG_LENGTH = 4;
const HEX_UPPER = '0123456789ABCDEF';

const templates = new Map<string, Template | null>();

/**
 * The template used last and what it was made for (issue 14 round 3): orders come from one seller after another with
 * references of one length, so the inputs are compared with the last ones (the same strings, compared by identity
 * first) before a key is written and looked up in `templates`; the key string and its hashing were most of this
 * function's own time in the create-order profile.
 */
let last: { qr: MerchantQr; referenceLength: number; template: Template | null } | null = null;

/** What the template depends on: every MerchantQr field but the QR id and the reference. */
const TEMPLATE_INPUTS = ['pointOfInitiation', 'currency', 'countryCode', 'merchantCategoryCode', 'merchantName', 'merchantCity'] as const;

function templateFor(qr: MerchantQr, referenceLength: number): Template | null {
  if (last !== null && last.referenceLength === referenceLength && sameFields(last.qr, qr, TEMPLATE_INPUTS)) return last.template;
  const key = `${qr.pointOfInitiation}\u0000${qr.currency}\u0000${qr.countryCode}\u0000${qr.merchantCategoryCode ?? ''}\u0000${referenceLength}\u0000${qr.merchantName}\u0000${qr.merchantCity}`;
  let template = templates.get(key);
  if (template === undefined) {
    if (templates.size >= MAX_TEMPLATES) templates.clear();
    template = makeTemplate(qr, referenceLength);
    templates.set(key, template);
  }
  // Only the fields compared above are kept, not the caller's object (which carries an order's QR id and reference).
  const { pointOfInitiation, currency, countryCode, merchantCategoryCode, merchantName, merchantCity } = qr;
  last = { qr: { pointOfInitiation, currency, countryCode, merchantCategoryCode, merchantName, merchantCity, qrId: '' }, referenceLength, template };
  return template;
}

export function buildMerchantQrFast(qr: MerchantQr & { reference: string }): string {
  const { qrId, reference } = qr;
  if (!UUID.test(qrId) || reference.length > MAX_REFERENCE || !PRINTABLE_ASCII.test(reference)) return buildMerchantQr(qr);
  const template = templateFor(qr, reference.length);
  if (template === null) return buildMerchantQr(qr);
  const { body, qrIdAt, referenceAt, bytes } = template;
  if (bytes !== null) {
    // qrId and reference are printable ASCII (checked above), one byte a character as latin1.
    bytes.write(qrId, qrIdAt, 'latin1');
    bytes.write(reference, referenceAt, 'latin1');
    const end = body.length;
    let crc = 0xffff;
    for (let i = 0; i < end; i += 1) crc = ((crc << 8) & 0xffff) ^ (CRC_TABLE[((crc >> 8) ^ (bytes[i] as number)) & 0xff] as number);
    bytes[end] = HEX_UPPER.charCodeAt((crc >> 12) & 0xf);
    bytes[end + 1] = HEX_UPPER.charCodeAt((crc >> 8) & 0xf);
    bytes[end + 2] = HEX_UPPER.charCodeAt((crc >> 4) & 0xf);
    bytes[end + 3] = HEX_UPPER.charCodeAt(crc & 0xf);
    return bytes.toString('latin1', 0, end + CRC_TAG_LENGTH);
  }
  // Two branches rather than a destructured array of four (issue 14 round 3: no array per order).
  const filled =
    qrIdAt < referenceAt
      ? body.slice(0, qrIdAt) + qrId + body.slice(qrIdAt + qrId.length, referenceAt) + reference + body.slice(referenceAt + reference.length)
      : body.slice(0, referenceAt) + reference + body.slice(referenceAt + reference.length, qrIdAt) + qrId + body.slice(qrIdAt + qrId.length);
  return filled + crc16(filled);
}

/**
 * shared/emv-qr.ts crc16Ccitt (CRC-16/CCITT-FALSE, platform-facts "QR data"), a byte at a time from a table instead
 * of a bit at a time: the same value, several times faster. The filled template is printable ASCII by construction
 * (buildMerchantQr wrote it, and the QR id and reference were checked above).
 */
const CRC_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte += 1) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[byte] = crc;
  }
  return table;
})();

export function crc16(text: string): string {
  let crc = 0xffff;
  for (let i = 0; i < text.length; i += 1) crc = ((crc << 8) & 0xffff) ^ (CRC_TABLE[((crc >> 8) ^ text.charCodeAt(i)) & 0xff] as number);
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** null when the places cannot be told apart (then every call goes to buildMerchantQr). Throws as buildMerchantQr does. */
function makeTemplate(qr: MerchantQr, referenceLength: number): Template | null {
  const referenceA = 'A'.repeat(referenceLength);
  const referenceB = 'B'.repeat(referenceLength);
  const base = withoutCrc(buildMerchantQr({ ...qr, qrId: QR_ID_A, reference: referenceA }));
  const otherQrId = withoutCrc(buildMerchantQr({ ...qr, qrId: QR_ID_B, reference: referenceA }));
  const otherReference = withoutCrc(buildMerchantQr({ ...qr, qrId: QR_ID_A, reference: referenceB }));
  const qrIdAt = firstDifference(base, otherQrId);
  const referenceAt = firstDifference(base, otherReference);
  if (qrIdAt < 0 || referenceAt < 0 || base.slice(qrIdAt, qrIdAt + QR_ID_A.length) !== QR_ID_A) return null;
  if (base.slice(referenceAt, referenceAt + referenceLength) !== referenceA) return null;
  const overlap = qrIdAt < referenceAt ? qrIdAt + QR_ID_A.length > referenceAt : referenceAt + referenceLength > qrIdAt;
  if (overlap) return null;
  return { body: base, qrIdAt, referenceAt, bytes: PRINTABLE_ASCII.test(base) ? Buffer.from(base + '0'.repeat(CRC_TAG_LENGTH), 'latin1') : null };
}

function withoutCrc(payload: string): string {
  return payload.slice(0, -CRC_TAG_LENGTH);
}

function firstDifference(a: string, b: string): number {
  if (a.length !== b.length) return -1;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return i;
  return -1;
}
