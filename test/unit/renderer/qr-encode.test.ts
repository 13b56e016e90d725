// issue 15 "The renderer stays under 100 KB gzip of JS": renderer/src/lib/qr-encode.ts replaced the `qrcode` package in
// the renderer. A QR that differs by one module may still scan, or may not, so the proof is equality: for hundreds of
// inputs (EMVCo payloads built as the platform builds them, random ASCII, UTF-8 with accents and emoji) the matrix is
// `qrcode`'s module for module, in byte mode at level M, which fixes the version (the size) and the mask (format bits).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import QRCode from 'qrcode';
import { encodeQr, qrSvg } from '../../../renderer/src/lib/qr-encode.ts';
import { buildEmvPayload, buildMerchantQr } from '../../../shared/emv-qr.ts';
import type { Currency } from '../../../shared/money.ts';

// Deterministic inputs (mulberry32), so a failure names an input that fails again.
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(15);
const int = (below: number): number => Math.floor(rand() * below);
const ascii = (length: number): string => Array.from({ length }, () => String.fromCharCode(32 + int(95))).join('');
const uuid = (): string => {
  const hex = Array.from({ length: 32 }, () => int(16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
};

function emvPayloads(): string[] {
  const currencies: [Currency, string][] = [['ARS', 'AR'], ['BRL', 'BR'], ['CLP', 'CL'], ['UYU', 'UY']];
  const out: string[] = [];
  for (let i = 0; i < 120; i++) {
    const [currency, countryCode] = currencies[i % currencies.length]!;
    const qr = {
      pointOfInitiation: i % 2 ? ('dynamic' as const) : ('static' as const),
      qrId: uuid(),
      currency,
      countryCode,
      merchantName: ascii(1 + int(25)).replace(/^ +| +$/g, 'x'),
      merchantCity: ascii(1 + int(15)).replace(/^ +| +$/g, 'y'),
      ...(i % 3 ? { reference: `ORD${ascii(1 + int(60)).replace(/^ +| +$/g, 'z')}` } : {}),
    };
    out.push(buildMerchantQr(qr));
  }
  // Longer EMVCo texts (extra templates of up to 99 characters each), as a platform may add, up to a few KB.
  for (let i = 0; i < 40; i++) {
    const fields = [{ tag: '00', value: '01' }, { tag: '01', value: '12' }];
    for (let k = 0, count = 1 + int(20); k < count; k++) fields.push({ tag: String(26 + k).padStart(2, '0'), value: ascii(1 + int(99)) });
    out.push(buildEmvPayload(fields));
  }
  return out;
}

const UTF8_SAMPLES = ['Café', 'Ñandú', 'São Paulo', 'pagá con tu app 📱', 'Peñarol ⚽ campeón', 'açúcar ção õ', '🙂', 'ü€✓漢字'];
function utf8Texts(): string[] {
  return Array.from({ length: 50 }, (_, i) => {
    const parts: string[] = [];
    for (let k = 0, count = 1 + int(i < 40 ? 8 : 120); k < count; k++) parts.push(int(2) ? UTF8_SAMPLES[int(UTF8_SAMPLES.length)]! : ascii(1 + int(12)));
    return parts.join(' ');
  });
}

const inputs = [
  ...emvPayloads(),
  ...Array.from({ length: 150 }, (_, i) => ascii(i < 120 ? 1 + int(600) : 600 + int(1731))),
  ...utf8Texts(),
  // Each version's edge at level M in byte mode: 14 bytes is the last of version 1, 2331 the last of version 40.
  ...[1, 14, 15, 26, 27, 42, 213, 214, 2331].map((n) => 'A'.repeat(n)),
];

function reference(text: string): { version: number; mask: number; size: number; data: Uint8Array } {
  const qr = QRCode.create([{ data: Buffer.from(text, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: 'M' });
  return { version: qr.version, mask: qr.maskPattern as number, size: qr.modules.size, data: qr.modules.data };
}

// The mask as the symbol states it: the format bits beside the top-left finder, unmasked (ISO 18004 §7.9).
function maskOf(size: number, modules: Uint8Array): number {
  let bits = 0;
  for (let i = 0; i < 15; i++) {
    const col = i < 8 ? size - i - 1 : i < 9 ? 7 : 14 - i;
    bits |= modules[8 * size + col]! << i;
  }
  return ((bits ^ 0x5412) >> 10) & 7;
}

test('the matrix equals qrcode\'s (byte mode, level M) for EMVCo, random ASCII and UTF-8 texts: same version, same mask', () => {
  assert.ok(inputs.length >= 300, `${inputs.length} inputs`);
  const versions = new Set<number>();
  const masks = new Set<number>();
  for (const text of inputs) {
    const expected = reference(text);
    const actual = encodeQr(text);
    assert.equal(actual.size, expected.size, `size for ${JSON.stringify(text.slice(0, 40))} (${text.length} chars)`);
    assert.equal(actual.size, expected.version * 4 + 17);
    assert.equal(maskOf(actual.size, actual.modules), expected.mask, `mask for ${JSON.stringify(text.slice(0, 40))}`);
    assert.ok(Buffer.from(actual.modules).equals(Buffer.from(expected.data)), `modules for ${JSON.stringify(text.slice(0, 40))}`);
    versions.add(expected.version);
    masks.add(expected.mask);
  }
  // The inputs reach every part of the encoder: small and large versions (version information from 7), every mask.
  assert.ok(versions.has(1) && versions.has(40) && [...versions].filter((v) => v >= 7).length >= 10, [...versions].join(','));
  assert.equal(masks.size, 8, [...masks].join(','));
});

test('a text longer than version 40 holds is refused, as qrcode refuses it', () => {
  assert.throws(() => encodeQr('A'.repeat(2332)), RangeError);
  assert.throws(() => reference('A'.repeat(2332)));
  assert.throws(() => encodeQr('ñ'.repeat(1166)), RangeError, '2332 UTF-8 bytes');
});

// Reads the SVG back: the viewBox, the white background, and every "h" run of the dark path as modules.
function parseSvg(svg: string): { full: number; modules: Uint8Array } {
  const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  assert.ok(viewBox && viewBox[1] === viewBox[2], svg.slice(0, 200));
  const full = Number(viewBox[1]);
  assert.ok(svg.includes('shape-rendering="crispEdges"'));
  assert.ok(svg.includes(`<path fill="#ffffff" d="M0 0h${full}v${full}H0z"/>`), 'a white background over the whole viewBox');
  const paths = svg.match(/<path [^>]*>/g) ?? [];
  assert.equal(paths.length, 2, 'the background and one path of dark modules');
  const d = /<path stroke="#000000" d="([^"]*)"\/>/.exec(svg)?.[1];
  assert.ok(d !== undefined);
  const modules = new Uint8Array(full * full);
  let x = 0;
  let y = 0;
  for (const [, command, a, b] of d.matchAll(/([Mmh])(\d+(?:\.\d+)?)(?: (\d+(?:\.\d+)?))?/g)) {
    if (command === 'M') [x, y] = [Number(a), Number(b) - 0.5];
    else if (command === 'm') x += Number(a);
    else for (let end = x + Number(a); x < end; x++) modules[y * full + x] = 1;
  }
  return { full, modules };
}

test('the SVG draws exactly the matrix inside a quiet zone of 2 modules, as qrcode\'s SVG did', async () => {
  for (const text of inputs.filter((_, i) => i % 5 === 0)) {
    const { size, modules } = encodeQr(text);
    const svg = qrSvg(text);
    const parsed = parseSvg(svg);
    assert.equal(parsed.full, size + 4);
    for (let row = 0; row < parsed.full; row++) {
      for (let col = 0; col < parsed.full; col++) {
        const inside = row >= 2 && col >= 2 && row < size + 2 && col < size + 2;
        const expected = inside ? modules[(row - 2) * size + col - 2] : 0;
        assert.equal(parsed.modules[row * parsed.full + col], expected, `(${row}, ${col}) of ${JSON.stringify(text.slice(0, 40))}`);
      }
    }
    // The same markup the component showed from qrcode.toString (byte mode, margin 2, level M).
    const segments = [{ data: Buffer.from(text, 'utf8'), mode: 'byte' as const }];
    const previous = await QRCode.toString(segments as unknown as string, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
    assert.equal(svg, previous);
  }
});
