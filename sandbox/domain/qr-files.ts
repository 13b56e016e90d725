import { create, toBuffer } from 'qrcode';
import { foldToFont, GLYPH_ADVANCE, GLYPH_HEIGHT, GLYPH_WIDTH, glyphPixel } from '../qr/bitmap-font.ts';
import { encodeGreyPng } from '../qr/png.ts';

// platform-facts "Stores and points of sale": a POS's qr.image (a PNG of its static QR) and qr.template_document (a
// printable PDF with the QR and the store and POS names), drawn from the POS's static EMVCo payload.

/** Error correction M, as the platform's printed codes; 4 modules of quiet zone (ISO/IEC 18004). */
const ERROR_CORRECTION = 'M';
const QUIET_ZONE = 4;
/** qr.image's pixels a module; the template draws the QR at the same scale, so the two QR areas are pixel-identical. */
const MODULE_PX = 10;

/** qr.image: the static QR as a PNG, 10 px a module (about 450 px square: sharp when printed at 8 cm). */
export function qrPng(payload: string): Promise<Buffer> {
  return toBuffer(payload, { type: 'png', errorCorrectionLevel: ERROR_CORRECTION, margin: QUIET_ZONE, scale: MODULE_PX });
}

/**
 * qr.template_document: one A4 page with the store's name, the POS's name and the QR 12 cm wide in the middle, written
 * by hand (a PDF this simple needs no library): the QR is a 1-bit image, one pixel a module, scaled by the page so it
 * prints crisp at any size. Text uses the standard Helvetica fonts (WinAnsi), so names outside Latin-1 print `?`.
 */
export function qrTemplatePdf(input: { payload: string; storeName: string; posName: string }): Buffer {
  const { modules } = create(input.payload, { errorCorrectionLevel: ERROR_CORRECTION });
  const side = modules.size + 2 * QUIET_ZONE;
  const rowBytes = Math.ceil(side / 8);
  const pixels = Buffer.alloc(rowBytes * side, 0xff); // DeviceGray 1 bit: 1 is white
  for (let y = 0; y < modules.size; y += 1) {
    for (let x = 0; x < modules.size; x += 1) {
      if (!modules.get(y, x)) continue;
      const px = x + QUIET_ZONE;
      const at = (y + QUIET_ZONE) * rowBytes + (px >> 3);
      pixels[at] = (pixels[at] as number) & ~(0x80 >> (px & 7));
    }
  }
  const pageWidth = 595; // A4 in points
  const qrSize = 340; // 12 cm
  const qrX = (pageWidth - qrSize) / 2;
  const content = [
    `BT /F2 26 Tf ${centred(input.storeName, 26, pageWidth)} 740 Td (${pdfText(input.storeName)}) Tj ET`,
    `BT /F1 18 Tf ${centred(input.posName, 18, pageWidth)} 705 Td (${pdfText(input.posName)}) Tj ET`,
    `q ${qrSize} 0 0 ${qrSize} ${qrX} 330 cm /QR Do Q`,
    `BT /F1 14 Tf ${centred('Scan to pay', 14, pageWidth)} 295 Td (Scan to pay) Tj ET`,
  ].join('\n');
  const objects: Array<string | Buffer[]> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pageWidth} 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R /F2 6 0 R >> /XObject << /QR 7 0 R >> >> >>`,
    [Buffer.from(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n`, 'latin1'), Buffer.from(content, 'latin1'), Buffer.from('\nendstream', 'latin1')],
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    [
      Buffer.from(`<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 1 /Interpolate false /Length ${pixels.length} >>\nstream\n`, 'latin1'),
      pixels,
      Buffer.from('\nendstream', 'latin1'),
    ],
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(length);
    const body = typeof object === 'string' ? [Buffer.from(object, 'latin1')] : object;
    for (const chunk of [Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), ...body, Buffer.from('\nendobj\n', 'latin1')]) {
      parts.push(chunk);
      length += chunk.length;
    }
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

/** A PDF string literal in WinAnsi: Latin-1 kept, anything else `?`, and the delimiters escaped. */
function pdfText(text: string): string {
  return [...text]
    .map((c) => (c.charCodeAt(0) > 0xff || c.charCodeAt(0) < 0x20 ? '?' : c))
    .join('')
    .replace(/[\\()]/g, (c) => `\\${c}`);
}

/** The x where text of this size starts to look centred (Helvetica averages about half an em a character). */
function centred(text: string, size: number, pageWidth: number): string {
  return Math.max(36, (pageWidth - text.length * size * 0.5) / 2).toFixed(1);
}

/**
 * qr.template_image (platform-facts "Stores and points of sale"): the printable template as a PNG, like the PDF: the
 * store's name, the POS's name, the QR exactly as qr.image draws it, and "Scan to pay", black on white. Names are drawn
 * with the sandbox's 5×7 bitmap font (accents folded, sandbox/qr/bitmap-font.ts), as large as fits the width; a name
 * too long even at the smallest size is cut with "...".
 */
export function qrTemplatePng(input: { payload: string; storeName: string; posName: string }): Buffer {
  const { modules } = create(input.payload, { errorCorrectionLevel: ERROR_CORRECTION });
  const qrSide = (modules.size + 2 * QUIET_ZONE) * MODULE_PX;
  const margin = 40;
  const width = Math.max(qrSide + 2 * margin, 640);
  const lines = [
    { text: input.storeName, scale: 6, minScale: 3 },
    { text: input.posName, scale: 4, minScale: 2 },
  ].map((line) => fitLine(foldToFont(line.text), line.scale, line.minScale, width - 2 * margin));
  const footer = fitLine('Scan to pay', 3, 3, width - 2 * margin);
  const gap = 16;
  const textHeight = (line: { scale: number }) => GLYPH_HEIGHT * line.scale;
  const qrTop = margin + lines.reduce((sum, line) => sum + textHeight(line) + gap, 0);
  const height = qrTop + qrSide + gap + textHeight(footer) + margin;
  const pixels = new Uint8Array(width * height).fill(0xff);

  let y = margin;
  for (const line of lines) {
    drawText(pixels, width, line, y);
    y += textHeight(line) + gap;
  }
  const qrLeft = Math.floor((width - qrSide) / 2);
  for (let row = 0; row < modules.size; row += 1) {
    for (let column = 0; column < modules.size; column += 1) {
      if (!modules.get(row, column)) continue;
      const top = qrTop + (row + QUIET_ZONE) * MODULE_PX;
      const left = qrLeft + (column + QUIET_ZONE) * MODULE_PX;
      for (let dy = 0; dy < MODULE_PX; dy += 1) pixels.fill(0, (top + dy) * width + left, (top + dy) * width + left + MODULE_PX);
    }
  }
  drawText(pixels, width, footer, qrTop + qrSide + gap);
  return encodeGreyPng({ width, height, pixels });
}

interface TextLine {
  text: string;
  scale: number;
}

/** The largest scale from `scale` down to `minScale` at which the text fits `room` pixels; cut with "..." if none does. */
function fitLine(text: string, scale: number, minScale: number, room: number): TextLine {
  for (let s = scale; s >= minScale; s -= 1) if (text.length * GLYPH_ADVANCE * s <= room) return { text, scale: s };
  const fits = Math.floor(room / (GLYPH_ADVANCE * minScale));
  return { text: `${text.slice(0, Math.max(0, fits - 3))}...`, scale: minScale };
}

/** Draws a line centred horizontally with its top at `top`, each font pixel a `scale`×`scale` square. */
function drawText(pixels: Uint8Array, width: number, line: TextLine, top: number): void {
  const lineWidth = line.text.length * GLYPH_ADVANCE * line.scale - line.scale;
  const left = Math.floor((width - lineWidth) / 2);
  [...line.text].forEach((char, i) => {
    for (let gx = 0; gx < GLYPH_WIDTH; gx += 1) {
      for (let gy = 0; gy < GLYPH_HEIGHT; gy += 1) {
        if (!glyphPixel(char, gx, gy)) continue;
        const x = left + (i * GLYPH_ADVANCE + gx) * line.scale;
        for (let dy = 0; dy < line.scale; dy += 1) pixels.fill(0, (top + gy * line.scale + dy) * width + x, (top + gy * line.scale + dy) * width + x + line.scale);
      }
    }
  });
}
