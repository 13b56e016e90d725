// issue 15 "The renderer stays under 100 KB gzip of JS": the `qrcode` package's browser build was 8.8 KB gzip for the
// one thing the kiosk draws, so this is a dedicated QR encoder for exactly that case (ISO/IEC 18004): the platform's
// qr_data (EMVCo text) as UTF-8 in byte mode, error correction level M, the smallest version that fits, the mask with
// the lowest penalty. test/unit/renderer/qr-encode.test.ts proves the matrix equal to `qrcode`'s (same version, same
// mask), so the SVG a customer scans is the one the package drew.

export interface QrMatrix {
  /** Modules per side (21 for version 1 … 177 for version 40). */
  size: number;
  /** Row-major, `size * size` entries; 1 = dark. */
  modules: Uint8Array;
}

// Per version 1–40 at level M: error-correction codewords per block, and the number of blocks (ISO 18004 table 9).
const EC_PER_BLOCK = [10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28];
const BLOCKS = [
  1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35,
  37, 38, 40, 43, 45, 47, 49,
];
const ecPerBlock = (version: number): number => EC_PER_BLOCK[version - 1] ?? 28;
const blocksOf = (version: number): number => BLOCKS[version - 1]!;

// Codewords in a symbol: its modules less the function patterns, in bytes.
function totalCodewords(version: number): number {
  let bits = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2;
    bits -= (25 * align - 10) * align - 55;
    if (version >= 7) bits -= 36;
  }
  return bits >> 3;
}

// Alignment pattern centres on each axis (the same rule as the standard's table E.1).
function alignmentCoords(version: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const size = version * 4 + 17;
  const step = size === 145 ? 26 : Math.ceil((size - 13) / (2 * count - 2)) * 2;
  const coords = [6];
  for (let pos = size - 7, i = 1; i < count; i++, pos -= step) coords.splice(1, 0, pos);
  return coords;
}

// GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1.
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
for (let i = 0, x = 1; i < 255; i++) {
  EXP[i] = x;
  LOG[x] = i;
  x = (x << 1) ^ (x & 0x80 ? 0x11d : 0);
}
for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255]!;
const mul = (a: number, b: number): number => (a && b ? EXP[LOG[a]! + LOG[b]!]! : 0);

function reedSolomon(data: Uint8Array, degree: number): Uint8Array {
  // Generator (x - α^0)(x - α^1)…(x - α^(degree-1)), leading 1 dropped.
  const gen = new Uint8Array(degree);
  gen[degree - 1] = 1;
  for (let i = 0, root = 1; i < degree; i++, root = mul(root, 2)) {
    for (let j = 0; j < degree; j++) gen[j] = mul(gen[j]!, root) ^ (gen[j + 1] ?? 0);
  }
  const rem = new Uint8Array(degree);
  for (const byte of data) {
    const factor = byte ^ rem[0]!;
    rem.copyWithin(0, 1);
    rem[degree - 1] = 0;
    for (let j = 0; j < degree; j++) rem[j]! ^= mul(gen[j]!, factor);
  }
  return rem;
}

// BCH remainder of `value` (already shifted) by `poly` of the given degree: format and version information.
function bch(value: number, poly: number, degree: number): number {
  let rem = value;
  for (let bit = 31 - Math.clz32(rem); bit >= degree; bit = 31 - Math.clz32(rem)) rem ^= poly << (bit - degree);
  return rem;
}

const MASKS: ((row: number, col: number) => boolean)[] = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (_r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r * c) % 3) + ((r + c) % 2)) % 2 === 0,
];

// The penalty rules N1–N4 (ISO 18004 §7.8.3), computed over the whole symbol as `qrcode` does.
function penalty(m: Uint8Array, size: number): number {
  let points = 0;
  let dark = 0;
  for (let a = 0; a < size; a++) {
    for (const horizontal of [true, false]) {
      let run = 0;
      let last = -1;
      let bits = 0;
      for (let b = 0; b < size; b++) {
        const v = (horizontal ? m[a * size + b] : m[b * size + a])!;
        if (v === last) run++;
        else {
          if (run >= 5) points += run - 2;
          last = v;
          run = 1;
        }
        bits = ((bits << 1) & 0x7ff) | v;
        if (b >= 10 && (bits === 0x5d0 || bits === 0x05d)) points += 40;
      }
      if (run >= 5) points += run - 2;
    }
    for (let b = 0; b < size; b++) {
      dark += m[a * size + b]!;
      if (a < size - 1 && b < size - 1) {
        const sum = m[a * size + b]! + m[a * size + b + 1]! + m[(a + 1) * size + b]! + m[(a + 1) * size + b + 1]!;
        if (sum === 0 || sum === 4) points += 3;
      }
    }
  }
  return points + Math.abs(Math.ceil((dark * 100) / (size * size) / 5) - 10) * 10;
}

/** `text` as a QR code: UTF-8 bytes in byte mode, level M, the smallest version 1–40 that holds it. */
export function encodeQr(text: string): QrMatrix {
  const bytes = new TextEncoder().encode(text);
  let version = 1;
  let dataCodewords = 0;
  for (; ; version++) {
    if (version > 40) throw new RangeError('The text is too long for a QR code');
    dataCodewords = totalCodewords(version) - blocksOf(version) * ecPerBlock(version);
    if (4 + (version < 10 ? 8 : 16) + bytes.length * 8 <= dataCodewords * 8) break;
  }

  // Data bits: mode 0100, the byte count, the bytes, a terminator, then 0xEC 0x11 padding.
  const data = new Uint8Array(dataCodewords);
  let bitLength = 0;
  const put = (value: number, count: number): void => {
    for (let i = count - 1; i >= 0; i--, bitLength++) data[bitLength >> 3]! |= ((value >>> i) & 1) << (7 - (bitLength & 7));
  };
  put(4, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const byte of bytes) put(byte, 8);
  put(0, Math.min(4, dataCodewords * 8 - bitLength));
  for (let i = (bitLength + 7) >> 3, pad = 0xec; i < dataCodewords; i++, pad ^= 0xec ^ 0x11) data[i] = pad;

  // Split into blocks, add error correction to each, interleave.
  const blocks = blocksOf(version);
  const ec = ecPerBlock(version);
  const shortLength = Math.floor(dataCodewords / blocks);
  const shortBlocks = blocks - (dataCodewords % blocks);
  const dataBlocks: Uint8Array[] = [];
  const ecBlocks: Uint8Array[] = [];
  for (let b = 0, offset = 0; b < blocks; b++) {
    const length = shortLength + (b < shortBlocks ? 0 : 1);
    dataBlocks.push(data.subarray(offset, offset + length));
    ecBlocks.push(reedSolomon(data.subarray(offset, offset + length), ec));
    offset += length;
  }
  const codewords: number[] = [];
  for (let i = 0; i <= shortLength; i++) for (const block of dataBlocks) if (i < block.length) codewords.push(block[i]!);
  for (let i = 0; i < ec; i++) for (const block of ecBlocks) codewords.push(block[i]!);

  // Function patterns, marked in `reserved` so that data and masks skip them.
  const size = version * 4 + 17;
  const modules = new Uint8Array(size * size);
  const reserved = new Uint8Array(size * size);
  const set = (row: number, col: number, dark: boolean | number): void => {
    modules[row * size + col] = dark ? 1 : 0;
    reserved[row * size + col] = 1;
  };
  for (const [r0, c0] of [[0, 0], [size - 7, 0], [0, size - 7]] as const) {
    for (let r = -1; r <= 7; r++) {
      for (let c = -1; c <= 7; c++) {
        const row = r0 + r;
        const col = c0 + c;
        if (row < 0 || row >= size || col < 0 || col >= size) continue;
        const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
        set(row, col, ring !== 2 && ring !== 4);
      }
    }
  }
  for (let i = 8; i < size - 8; i++) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  const align = alignmentCoords(version);
  const last = align.length - 1;
  for (const [i, row] of align.entries()) {
    for (const [j, col] of align.entries()) {
      if ((i === 0 && (j === 0 || j === last)) || (i === last && j === 0)) continue; // the finder patterns' corners
      for (let r = -2; r <= 2; r++) for (let c = -2; c <= 2; c++) set(row + r, col + c, Math.max(Math.abs(r), Math.abs(c)) !== 1);
    }
  }
  const drawFormat = (mask: number): void => {
    // Level M is 00; 15 bits, BCH(15,5), masked with 101010000010010.
    const bits = ((mask << 10) | bch(mask << 10, 0x537, 10)) ^ 0x5412;
    for (let i = 0; i < 15; i++) {
      const dark = (bits >> i) & 1;
      set(i < 6 ? i : i < 8 ? i + 1 : size - 15 + i, 8, dark);
      set(8, i < 8 ? size - i - 1 : i < 9 ? 15 - i : 14 - i, dark);
    }
    set(size - 8, 8, 1);
  };
  drawFormat(0);
  if (version >= 7) {
    const bits = (version << 12) | bch(version << 12, 0x1f25, 12);
    for (let i = 0; i < 18; i++) {
      const a = Math.floor(i / 3);
      const b = (i % 3) + size - 11;
      set(a, b, (bits >> i) & 1);
      set(b, a, (bits >> i) & 1);
    }
  }

  // Data in the zigzag: two-column strips from the right, up then down, skipping the vertical timing column.
  let bit = 0;
  for (let right = size - 1, upward = true; right >= 1; right -= 2, upward = !upward) {
    if (right === 6) right = 5;
    for (let k = 0; k < size; k++) {
      const row = upward ? size - 1 - k : k;
      for (const col of [right, right - 1]) {
        if (reserved[row * size + col]) continue;
        const byte = codewords[bit >> 3] ?? 0;
        modules[row * size + col] = (byte >> (7 - (bit & 7))) & 1;
        bit++;
      }
    }
  }

  const applyMask = (mask: number): void => {
    const test = MASKS[mask]!;
    for (let row = 0; row < size; row++) {
      for (let col = 0; col < size; col++) if (!reserved[row * size + col] && test(row, col)) modules[row * size + col]! ^= 1;
    }
  };
  let best = 0;
  let lowest = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    drawFormat(mask);
    applyMask(mask);
    const points = penalty(modules, size);
    applyMask(mask);
    if (points < lowest) {
      lowest = points;
      best = mask;
    }
  }
  drawFormat(best);
  applyMask(best);
  return { size, modules };
}

/**
 * `text` as the SVG markup the kiosk shows: a white background and one path of dark runs, with a quiet zone of 2
 * modules in the viewBox (the markup `qrcode`'s toString(…, { type: 'svg', margin: 2 }) drew before).
 */
export function qrSvg(text: string): string {
  const { size, modules } = encodeQr(text);
  const margin = 2;
  const full = size + margin * 2;
  let path = '';
  for (let row = 0; row < size; row++) {
    let gap = 0;
    let first = true;
    for (let col = 0; col < size; col++) {
      if (!modules[row * size + col]) {
        gap++;
        continue;
      }
      let run = 1;
      while (col + run < size && modules[row * size + col + run]) run++;
      path += (first ? `M${col + margin} ${row + margin + 0.5}` : `m${gap} 0`) + `h${run}`;
      first = false;
      gap = 0;
      col += run - 1;
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${full} ${full}" shape-rendering="crispEdges">` +
    `<path fill="#ffffff" d="M0 0h${full}v${full}H0z"/><path stroke="#000000" d="${path}"/></svg>\n`
  );
}
