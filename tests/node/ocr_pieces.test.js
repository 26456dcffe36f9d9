// The OCR example's own pieces (examples/node/ocr/): PNG in and out, DB boxes, crops, CTC and the
// character accuracy, on the same cases as tests/tools/ocr_test.cpp for the C++ ones.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const zlib = require('zlib');
const { decodePng, encodePng } = require('../../examples/node/ocr/png');
const { findTextBoxes, minimumAreaRectangle } = require('../../examples/node/ocr/boxes');
const { cropQuad, rotate90 } = require('../../examples/node/ocr/image');
const { decodeCtc, characterAccuracy } = require('../../examples/node/ocr/text');

function gradient(width, height) {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rgb.set([x & 255, y & 255, (x + y) & 255], (y * width + x) * 3);
  }
  return { width, height, rgb };
}

test('a PNG written is read back, and what is not a PNG is refused', () => {
  const image = gradient(9, 4);
  const back = decodePng(encodePng(image));
  assert.deepStrictEqual([back.width, back.height], [9, 4]);
  assert.deepStrictEqual(Buffer.from(back.rgb), Buffer.from(image.rgb));
  assert.throws(() => decodePng(Buffer.from('not a png'), 'x.png'), /x.png: not a PNG file/);
});

test('filtered rows (Sub, Up, Average, Paeth) of a greyscale PNG decode', () => {
  // 3 x 4 greyscale, one row per filter type 1-4, raw values 10, 20, 30 + 5 * row.
  const rows = [];
  let above = [0, 0, 0];
  for (let filter = 1; filter <= 4; filter++) {
    const values = [10, 20, 30].map((v) => v + 5 * filter);
    const encoded = values.map((v, i) => {
      const a = i > 0 ? values[i - 1] : 0;
      const b = above[i];
      const c = i > 0 ? above[i - 1] : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a
        : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      return (v - [0, a, b, (a + b) >> 1, paeth][filter]) & 255;
    });
    rows.push(filter, ...encoded);
    above = values;
  }
  const png = encodePng({ width: 1, height: 1, rgb: new Uint8Array(3) });
  // Swap in a greyscale IHDR and the filtered data.
  const header = Buffer.alloc(13);
  header.writeUInt32BE(3, 0);
  header.writeUInt32BE(4, 4);
  header[8] = 8;
  header[9] = 0;
  const chunk = (type, body) => {
    const out = Buffer.alloc(12 + body.length);
    out.writeUInt32BE(body.length, 0);
    out.write(type, 4, 'latin1');
    body.copy(out, 8);
    return out;  // (the decoder does not check CRCs)
  };
  const file = Buffer.concat([png.subarray(0, 8), chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.from(rows))), chunk('IEND', Buffer.alloc(0))]);
  const image = decodePng(file);
  const grey = [];
  for (let p = 0; p < 12; p++) grey.push(image.rgb[3 * p]);
  assert.deepStrictEqual(grey, [15, 25, 35, 20, 30, 40, 25, 35, 45, 30, 40, 50]);
});

test('boxes: a region unclipped by area * ratio / perimeter; a rotated rectangle at its angle', () => {
  const [w, h] = [100, 40];
  const map = new Float32Array(w * h);
  for (let y = 10; y < 16; y++) for (let x = 10; x < 40; x++) map[y * w + x] = 0.9;
  const boxes = findTextBoxes(map, w, h);
  assert.strictEqual(boxes.length, 1);
  assert.ok(Math.abs(boxes[0].width - 37.5) < 1e-9 && Math.abs(boxes[0].height - 13.5) < 1e-9);
  assert.deepStrictEqual(boxes[0].corners[0].map((v) => +v.toFixed(6)), [6.25, 6.25]);
  const r = minimumAreaRectangle([[2, 0], [6, 4], [4, 6], [0, 2], [3, 3]]);
  assert.ok(Math.abs(r.width * r.height - 16) < 1e-9);
});

test('crops: an axis-aligned quad pixel for pixel; a tall one turned counter-clockwise', () => {
  const image = gradient(20, 30);
  const crop = cropQuad(image, [[2, 3], [12, 3], [12, 8], [2, 8]]);
  assert.deepStrictEqual([crop.width, crop.height], [10, 5]);
  assert.deepStrictEqual([...crop.rgb.subarray(0, 3)], [2, 3, 5]);
  const tall = cropQuad(image, [[2, 2], [6, 2], [6, 22], [2, 22]]);
  assert.deepStrictEqual([tall.width, tall.height], [20, 4]);
  assert.deepStrictEqual([...tall.rgb.subarray(0, 2)], [5, 2]);
  assert.strictEqual(rotate90(gradient(7, 5)).rgb[0], 6);
});

test('CTC and the character accuracy', () => {
  const best = [1, 1, 0, 1, 2, 2, 3, 0, 0, 2];
  const p = new Float32Array(best.length * 4).fill(0.1 / 3);
  best.forEach((k, t) => { p[t * 4 + k] = 0.9; });
  const r = decodeCtc(p, best.length, 4, ['a', 'b', ' ']);
  assert.strictEqual(r.text, 'aab b');
  assert.ok(Math.abs(r.confidence - 0.9) < 1e-6);
  assert.strictEqual(characterAccuracy(['HelloWebNN'], ['Hello WebNN']).accuracy, 1);
  assert.strictEqual(characterAccuracy(['HelloWebMN'], ['Hello WebNN']).accuracy, 0.9);
  assert.strictEqual(characterAccuracy(['abcd'], ['abcd', 'efgh']).accuracy, 0.5);
  assert.strictEqual(characterAccuracy(['中'], ['文']).edits, 1);
});
