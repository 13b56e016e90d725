// A small PNG reader for tests of the sandbox's QR images (issue 16): 8-bit greyscale, RGB or RGBA, not interlaced,
// any row filter. It checks every chunk's CRC, so a test reading a PNG through it also proves the file is well formed.
import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { crc32 } from '../../sandbox/qr/png.ts';

export interface DecodedPng {
  width: number;
  height: number;
  /** One byte a pixel: the mean of the colour channels (0 black, 255 white). */
  grey: Uint8Array;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 6: 4 };

export function decodePng(png: Buffer): DecodedPng {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  let ended = false;
  while (at < png.length && !ended) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    assert.equal(png.readUInt32BE(at + 8 + length), crc32(png.subarray(at + 4, at + 8 + length)), `CRC of ${type}`);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      assert.equal(data[8], 8, 'bit depth 8');
      assert.equal(data[12], 0, 'not interlaced');
      channels = CHANNELS[data[9] as number] ?? 0;
      assert.ok(channels > 0, `colour type ${data[9]}`);
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'IEND') {
      ended = true;
    }
    at += 12 + length;
  }
  assert.ok(ended && width > 0, 'IHDR first, IEND last');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  assert.equal(raw.length, (stride + 1) * height, 'IDAT holds every row');
  const rows = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)] as number;
    for (let x = 0; x < stride; x += 1) {
      const value = raw[y * (stride + 1) + 1 + x] as number;
      const a = x >= channels ? (rows[y * stride + x - channels] as number) : 0;
      const b = y > 0 ? (rows[(y - 1) * stride + x] as number) : 0;
      const c = x >= channels && y > 0 ? (rows[(y - 1) * stride + x - channels] as number) : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      assert.ok(predictor !== undefined, `row filter ${filter}`);
      rows[y * stride + x] = (value + predictor) & 0xff;
    }
  }
  const grey = new Uint8Array(width * height);
  const colours = Math.min(channels, 3);
  for (let i = 0; i < width * height; i += 1) {
    let sum = 0;
    for (let k = 0; k < colours; k += 1) sum += rows[i * channels + k] as number;
    grey[i] = Math.round(sum / colours);
  }
  return { width, height, grey };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Where `inner` appears pixel for pixel inside `outer` (its top-left corner), or null. */
export function findImage(outer: DecodedPng, inner: DecodedPng): { x: number; y: number } | null {
  // The first row with ink is compared first: blank margins match blank paper almost everywhere.
  const probe = Math.max(0, Math.floor(inner.grey.findIndex((v) => v < 128) / inner.width));
  for (let y = 0; y + inner.height <= outer.height; y += 1) {
    for (let x = 0; x + inner.width <= outer.width; x += 1) {
      if (rowMatches(outer, inner, x, y, probe) && matchesAt(outer, inner, x, y)) return { x, y };
    }
  }
  return null;
}

function rowMatches(outer: DecodedPng, inner: DecodedPng, x: number, y: number, row: number): boolean {
  for (let column = 0; column < inner.width; column += 1) {
    if (outer.grey[(y + row) * outer.width + x + column] !== inner.grey[row * inner.width + column]) return false;
  }
  return true;
}

function matchesAt(outer: DecodedPng, inner: DecodedPng, x: number, y: number): boolean {
  for (let row = 0; row < inner.height; row += 1) {
    for (let column = 0; column < inner.width; column += 1) {
      if (outer.grey[(y + row) * outer.width + x + column] !== inner.grey[row * inner.width + column]) return false;
    }
  }
  return true;
}
