// PNG for the OCR example (Node has zlib, not PNG): decodes non-interlaced images of 8 or 16 bits
// per sample, grey, RGB, palette, with or without alpha (alpha dropped), as 8-bit RGB; encodes
// 8-bit RGB.
'use strict';
const zlib = require('zlib');

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_PIXELS = 100 * 1024 * 1024;

function paeth(a, b, c) {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// Returns { width, height, rgb: Uint8Array (3 bytes a pixel, row-major) }.
function decodePng(bytes, name = 'image') {
  const fail = (why) => { throw new Error(`${name}: ${why}`); };
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(SIGNATURE)) fail('not a PNG file');
  let header = null;
  let palette = null;
  const data = [];
  for (let at = 8; at + 8 <= bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > bytes.length) fail(`the ${type} chunk runs past the end of the file`);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      header = {
        width: body.readUInt32BE(0), height: body.readUInt32BE(4), depth: body[8],
        colorType: body[9], interlace: body[12],
      };
    } else if (type === 'PLTE') {
      palette = body;
    } else if (type === 'IDAT') {
      data.push(body);
    } else if (type === 'IEND') {
      break;
    }
    at += 12 + length;
  }
  if (!header) fail('no IHDR chunk');
  const { width, height, depth, colorType, interlace } = header;
  if (width === 0 || height === 0 || width * height > MAX_PIXELS) fail(`${width} x ${height} pixels is outside the limits`);
  if (interlace !== 0) fail('interlaced PNGs are not read');
  const samples = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType];
  if (!samples) fail(`colour type ${colorType} is not a PNG colour type`);
  if (!(depth === 8 || depth === 16) || (colorType === 3 && depth !== 8)) fail(`${depth}-bit samples are not read`);
  if (colorType === 3 && !palette) fail('a palette image without a PLTE chunk');
  const pixelBytes = samples * depth / 8;
  const stride = width * pixelBytes;
  const raw = zlib.inflateSync(Buffer.concat(data));
  if (raw.length < (stride + 1) * height) fail('the image data is shorter than its size says');

  // Undo the per-row filters in place.
  const rows = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = rows.subarray(y * stride, (y + 1) * stride);
    const above = y > 0 ? rows.subarray((y - 1) * stride, y * stride) : null;
    for (let i = 0; i < stride; i++) {
      const a = i >= pixelBytes ? out[i - pixelBytes] : 0;
      const b = above ? above[i] : 0;
      const c = above && i >= pixelBytes ? above[i - pixelBytes] : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      if (predictor === undefined) fail(`row ${y} has filter ${filter}`);
      out[i] = (row[i] + predictor) & 0xff;
    }
  }

  const rgb = new Uint8Array(width * height * 3);
  const step = depth / 8;  // 16-bit samples: their high byte
  for (let p = 0; p < width * height; p++) {
    const at = p * pixelBytes;
    const sample = (k) => rows[at + k * step];
    let r, g, b;
    if (colorType === 3) {
      const index = sample(0);
      if (3 * index + 2 >= palette.length) fail(`palette index ${index} is outside the palette`);
      [r, g, b] = [palette[3 * index], palette[3 * index + 1], palette[3 * index + 2]];
    } else if (colorType === 0 || colorType === 4) {
      r = g = b = sample(0);
    } else {
      [r, g, b] = [sample(0), sample(1), sample(2)];
    }
    rgb[3 * p] = r;
    rgb[3 * p + 1] = g;
    rgb[3 * p + 2] = b;
  }
  return { width, height, rgb };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, body) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

// An 8-bit RGB PNG of { width, height, rgb } (every row unfiltered).
function encodePng({ width, height, rgb }) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;  // bits per sample
  header[9] = 2;  // RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    Buffer.from(rgb.buffer, rgb.byteOffset + y * width * 3, width * 3).copy(raw, y * (width * 3 + 1) + 1);
  }
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0))]);
}

module.exports = { decodePng, encodePng };
