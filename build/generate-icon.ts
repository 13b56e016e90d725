// Writes build/resources/icon.png, the app icon electron-builder turns into the Linux, Windows (.ico) and macOS
// (.icns) icons: 512×512, a QR finder-pattern motif in black on white. Generated rather than drawn so the repository
// needs no image tools. Usage: node --import tsx build/generate-icon.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

const SIZE = 512;
const MODULES = 21; // a version-1 QR grid
const MARGIN = 2;
const cell = Math.floor(SIZE / (MODULES + 2 * MARGIN));
const offset = Math.floor((SIZE - cell * MODULES) / 2);

/** The three finder patterns and a fixed, QR-looking fill in between (not a readable code). */
function dark(x: number, y: number): boolean {
  for (const [fx, fy] of [[0, 0], [MODULES - 7, 0], [0, MODULES - 7]] as const) {
    const dx = x - fx;
    const dy = y - fy;
    if (dx >= 0 && dx < 7 && dy >= 0 && dy < 7) return dx === 0 || dx === 6 || dy === 0 || dy === 6 || (dx >= 2 && dx <= 4 && dy >= 2 && dy <= 4);
    if (dx >= -1 && dx <= 7 && dy >= -1 && dy <= 7) return false;
  }
  return ((x * 7 + y * 13 + x * y) % 5) < 2;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buffer) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export function iconPng(): Buffer {
  const rows: Buffer[] = [];
  for (let py = 0; py < SIZE; py += 1) {
    const row = Buffer.alloc(1 + SIZE * 3, 0xff);
    row[0] = 0; // filter: none
    for (let px = 0; px < SIZE; px += 1) {
      const x = Math.floor((px - offset) / cell);
      const y = Math.floor((py - offset) / cell);
      if (px >= offset && py >= offset && x < MODULES && y < MODULES && dark(x, y)) row.fill(0x11, 1 + px * 3, 4 + px * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

writeFileSync(join(import.meta.dirname, 'resources', 'icon.png'), iconPng());
