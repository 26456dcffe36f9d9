// The image operations of the OCR example, as tools/ocr/image.cpp and crop.cpp do them: images
// are { width, height, rgb: Uint8Array } (3 bytes a pixel).
'use strict';

const at = (image, x, y) => (y * image.width + x) * 3;

// Bilinear resampling with pixel centres aligned.
function resize(image, width, height) {
  const out = { width, height, rgb: new Uint8Array(width * height * 3) };
  const sx = image.width / width;
  const sy = image.height / height;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(Math.max((y + 0.5) * sy - 0.5, 0), image.height - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, image.height - 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(Math.max((x + 0.5) * sx - 0.5, 0), image.width - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(x0 + 1, image.width - 1);
      const wx = fx - x0;
      for (let c = 0; c < 3; c++) {
        const top = image.rgb[at(image, x0, y0) + c] * (1 - wx) + image.rgb[at(image, x1, y0) + c] * wx;
        const bottom = image.rgb[at(image, x0, y1) + c] * (1 - wx) + image.rgb[at(image, x1, y1) + c] * wx;
        out.rgb[at(out, x, y) + c] = Math.round(top * (1 - wy) + bottom * wy);
      }
    }
  }
  return out;
}

function rotate180(image) {
  const out = { width: image.width, height: image.height, rgb: new Uint8Array(image.rgb.length) };
  for (let p = 0, n = image.width * image.height; p < n; p++) {
    out.rgb.set(image.rgb.subarray(3 * (n - 1 - p), 3 * (n - p)), 3 * p);
  }
  return out;
}

// Counter-clockwise: the output's row y is the input's column width - 1 - y.
function rotate90(image) {
  const out = { width: image.height, height: image.width, rgb: new Uint8Array(image.rgb.length) };
  for (let y = 0; y < out.height; y++) {
    for (let x = 0; x < out.width; x++) {
      const from = at(image, image.width - 1 - y, x);
      out.rgb.set(image.rgb.subarray(from, from + 3), at(out, x, y));
    }
  }
  return out;
}

// The homography H (row-major, h[8] = 1) with H * from[i] ~ to[i] (Gaussian elimination).
function homography(from, to) {
  const a = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i];
    const [u, v] = to[i];
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let r = col + 1; r < 8; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    if (Math.abs(a[col][col]) < 1e-12) return [1, 0, 0, 0, 1, 0, 0, 0, 1];
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const f = a[r][col] / a[col][col];
      for (let k = col; k < 9; k++) a[r][k] -= f * a[col][k];
    }
  }
  return [...a.map((row, i) => row[8] / row[i]), 1];
}

// The quadrilateral (corners clockwise from the top-left, [x, y] each) cut out and made upright
// by a perspective transform (PaddleOCR's get_rotate_crop_image); a crop 1.5 times taller than
// wide is vertical text, turned counter-clockwise.
function cropQuad(image, corners) {
  const distance = (p, q) => Math.hypot(q[0] - p[0], q[1] - p[1]);
  const width = Math.max(1, Math.trunc(Math.max(distance(corners[0], corners[1]), distance(corners[2], corners[3]))));
  const height = Math.max(1, Math.trunc(Math.max(distance(corners[0], corners[3]), distance(corners[1], corners[2]))));
  const h = homography([[0, 0], [width, 0], [width, height], [0, height]], corners);
  const out = { width, height, rgb: new Uint8Array(width * height * 3) };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const w = h[6] * x + h[7] * y + h[8];
      const sx = Math.min(Math.max((h[0] * x + h[1] * y + h[2]) / w, 0), image.width - 1);
      const sy = Math.min(Math.max((h[3] * x + h[4] * y + h[5]) / w, 0), image.height - 1);
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const x1 = Math.min(x0 + 1, image.width - 1);
      const y1 = Math.min(y0 + 1, image.height - 1);
      const wx = sx - x0;
      const wy = sy - y0;
      for (let c = 0; c < 3; c++) {
        const top = image.rgb[at(image, x0, y0) + c] * (1 - wx) + image.rgb[at(image, x1, y0) + c] * wx;
        const bottom = image.rgb[at(image, x0, y1) + c] * (1 - wx) + image.rgb[at(image, x1, y1) + c] * wx;
        out.rgb[at(out, x, y) + c] = Math.round(top * (1 - wy) + bottom * wy);
      }
    }
  }
  return height >= 1.5 * width ? rotate90(out) : out;
}

// [1, 3, height, paddedWidth] float32 in B, G, R order, each channel (value / 255 - mean) / deviation,
// zeros right of the image.
function toTensor(image, paddedWidth, mean, deviation) {
  const plane = image.height * paddedWidth;
  const tensor = new Float32Array(3 * plane);
  for (let c = 0; c < 3; c++) {
    const source = 2 - c;  // BGR from RGB: the models were trained on OpenCV's order
    for (let y = 0; y < image.height; y++) {
      for (let x = 0; x < image.width; x++) {
        const value = image.rgb[at(image, x, y) + source] / 255;
        tensor[c * plane + y * paddedWidth + x] = (value - mean[c]) / deviation[c];
      }
    }
  }
  return tensor;
}

// The closed polygon's edges, `thickness` pixels wide, in `color` ([r, g, b]).
function drawPolygon(image, corners, color, thickness) {
  for (let i = 0; i < corners.length; i++) {
    const a = corners[i];
    const b = corners[(i + 1) % corners.length];
    const steps = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1])));
    for (let s = 0; s <= steps; s++) {
      const cx = Math.round(a[0] + (b[0] - a[0]) * s / steps);
      const cy = Math.round(a[1] + (b[1] - a[1]) * s / steps);
      const half = Math.trunc(thickness / 2);
      for (let dy = -half; dy <= half; dy++) {
        for (let dx = -half; dx <= half; dx++) {
          const x = cx + dx;
          const y = cy + dy;
          if (x >= 0 && y >= 0 && x < image.width && y < image.height) image.rgb.set(color, at(image, x, y));
        }
      }
    }
  }
}

module.exports = { resize, rotate180, rotate90, cropQuad, toTensor, drawPolygon };
