import { deflateSync } from 'node:zlib';

// A minimal PNG writer (issue 16: qr.template_image): 8-bit greyscale, no interlace, every row with filter 0. A PNG
// is the signature, IHDR, the deflated rows in IDAT and IEND, each chunk with its CRC-32 (ISO/IEC 15948). node:zlib
// has crc32 only from Node 20.15, and the project supports 20.12, so the CRC is computed here.

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A greyscale image, one byte a pixel (0 black, 255 white), row after row. */
export interface GreyImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

export function encodeGreyPng(image: GreyImage): Buffer {
  const { width, height, pixels } = image;
  if (pixels.length !== width * height) throw new Error(`encodeGreyPng: ${pixels.length} pixels for ${width}×${height}`);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // colour type: greyscale
  // compression, filter and interlace methods: 0 (the only defined ones; no interlace)
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y += 1) raw.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
