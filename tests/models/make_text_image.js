// Writes a synthetic "document" image as a PaddleOCR detection input .npy: light paper with dark
// text-like strokes, normalized with ImageNet mean/std, shape [1, 3, H, W], float32. Deterministic
// for a seed, so that webnn and ONNX Runtime see the same input.
//   node make_text_image.js OUT.npy [HEIGHT] [WIDTH] [SEED]
'use strict';
const fs = require('fs');
const [out, h = '160', w = '160', seedText = '1'] = process.argv.slice(2);
const H = Number(h), W = Number(w);
let seed = Number(seedText) >>> 0 || 1;
const random = () => {  // xorshift32
  seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0;
  return seed / 4294967296;
};
const gray = new Float32Array(H * W).fill(0.92);
for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) gray[y * W + x] += (random() - 0.5) * 0.06;
// Lines of "words": runs of thin vertical and horizontal strokes.
for (let line = 8; line + 14 < H; line += 24) {
  let x = 6 + Math.floor(random() * 10);
  while (x + 10 < W - 6) {
    const word = 10 + Math.floor(random() * 30);
    for (let cx = x; cx < Math.min(x + word, W - 6); cx += 3 + Math.floor(random() * 3)) {
      const top = line + Math.floor(random() * 4), bottom = line + 10 + Math.floor(random() * 4);
      for (let y = top; y < bottom; y++) {
        gray[y * W + cx] = 0.1 + random() * 0.1;
        if (random() < 0.3) gray[y * W + cx + 1] = 0.15;
      }
      if (random() < 0.5) for (let dx = 0; dx < 3; dx++) gray[(line + 5) * W + cx + dx] = 0.12;
    }
    x += word + 6 + Math.floor(random() * 8);
  }
}
const mean = [0.485, 0.456, 0.406], std = [0.229, 0.224, 0.225];
const data = new Float32Array(3 * H * W);
for (let c = 0; c < 3; c++) for (let i = 0; i < H * W; i++) data[c * H * W + i] = (gray[i] - mean[c]) / std[c];
let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, ${H}, ${W}), }`;
header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
const prefix = Buffer.alloc(10);
prefix.write('\x93NUMPY', 0, 'latin1');
prefix[6] = 1;
prefix.writeUInt16LE(header.length, 8);
fs.writeFileSync(out, Buffer.concat([prefix, Buffer.from(header, 'latin1'), Buffer.from(data.buffer)]));
