// Text boxes from the detector's probability map (PaddleOCR's DB post-processing, as
// tools/ocr/text_boxes.cpp): 8-connected regions above a threshold, each region's minimum-area
// rectangle, kept when its mean probability is high enough, then unclipped by
// area * ratio / perimeter on every side. Points are [x, y].
'use strict';

const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

// Andrew's monotone chain.
function convexHull(points) {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .filter((p, i, all) => i === 0 || p[0] !== all[i - 1][0] || p[1] !== all[i - 1][1]);
  if (sorted.length < 3) return sorted;
  const lower = [];
  for (const p of sorted) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper = [];
  for (let i = sorted.length - 1; i >= 0; i--) {
    const p = sorted[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

// Corners clockwise from the top-left: of the two leftmost points the upper is the top-left.
function orderCorners(points) {
  const p = [...points].sort((a, b) => a[0] - b[0]);
  const [topLeft, bottomLeft] = p[0][1] <= p[1][1] ? [p[0], p[1]] : [p[1], p[0]];
  const [topRight, bottomRight] = p[2][1] <= p[3][1] ? [p[2], p[3]] : [p[3], p[2]];
  const corners = [topLeft, topRight, bottomRight, bottomLeft];
  return {
    corners,
    width: Math.hypot(topRight[0] - topLeft[0], topRight[1] - topLeft[1]),
    height: Math.hypot(bottomRight[0] - topRight[0], bottomRight[1] - topRight[1]),
  };
}

// Rotating calipers over the hull's edges.
function minimumAreaRectangle(points) {
  const hull = convexHull(points);
  if (hull.length === 0) return { corners: [], width: 0, height: 0 };
  if (hull.length < 3) {
    const [a, b] = [hull[0], hull[hull.length - 1]];
    return orderCorners([a, b, b, a]);
  }
  let best = null;
  let bestArea = Infinity;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i];
    const b = hull[(i + 1) % hull.length];
    const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (length === 0) continue;
    const ux = (b[0] - a[0]) / length;
    const uy = (b[1] - a[1]) / length;
    let [minU, maxU, minV, maxV] = [0, 0, 0, 0];
    for (const p of hull) {
      const u = (p[0] - a[0]) * ux + (p[1] - a[1]) * uy;
      const v = -(p[0] - a[0]) * uy + (p[1] - a[1]) * ux;
      minU = Math.min(minU, u);
      maxU = Math.max(maxU, u);
      minV = Math.min(minV, v);
      maxV = Math.max(maxV, v);
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      const corner = (u, v) => [a[0] + u * ux - v * uy, a[1] + u * uy + v * ux];
      best = [corner(minU, minV), corner(maxU, minV), corner(maxU, maxV), corner(minU, maxV)];
    }
  }
  return orderCorners(best);
}

const DEFAULTS = { threshold: 0.3, boxThreshold: 0.6, unclipRatio: 1.5, minSide: 3, maxBoxes: 1000 };

// Boxes of `probability` (height x width), largest first: [{ corners, width, height, score }].
function findTextBoxes(probability, width, height, options = {}) {
  const o = { ...DEFAULTS, ...options };
  const region = new Int32Array(width * height).fill(-1);
  const boxes = [];
  let regions = 0;
  for (let start = 0; start < width * height; start++) {
    if (region[start] >= 0 || !(probability[start] > o.threshold)) continue;
    const id = regions++;
    const corners = [];
    const pixels = [];
    const stack = [start];
    region[start] = id;
    while (stack.length) {
      const i = stack.pop();
      pixels.push(i);
      const x = i % width;
      const y = (i - x) / width;
      corners.push([x, y], [x + 1, y], [x, y + 1], [x + 1, y + 1]);
      for (let ny = Math.max(0, y - 1); ny <= Math.min(height - 1, y + 1); ny++) {
        for (let nx = Math.max(0, x - 1); nx <= Math.min(width - 1, x + 1); nx++) {
          const j = ny * width + nx;
          if (region[j] < 0 && probability[j] > o.threshold) {
            region[j] = id;
            stack.push(j);
          }
        }
      }
    }
    const rect = minimumAreaRectangle(corners);
    if (Math.min(rect.width, rect.height) < o.minSide) continue;
    const score = pixels.reduce((sum, i) => sum + probability[i], 0) / pixels.length;
    if (score < o.boxThreshold) continue;
    const distance = rect.width * rect.height * o.unclipRatio / (2 * (rect.width + rect.height));
    const [c0, c1, c2] = rect.corners;
    const center = [(c0[0] + c2[0]) / 2, (c0[1] + c2[1]) / 2];
    const ux = (c1[0] - c0[0]) / rect.width;
    const uy = (c1[1] - c0[1]) / rect.width;
    const halfW = rect.width / 2 + distance;
    const halfH = rect.height / 2 + distance;
    const grown = [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([su, sv]) => {
      const u = su * halfW;
      const v = sv * halfH;
      return [center[0] + u * ux - v * uy, center[1] + u * uy + v * ux];
    });
    const unclipped = orderCorners(grown);
    if (Math.min(unclipped.width, unclipped.height) < o.minSide + 2) continue;
    boxes.push({ ...unclipped, score });
  }
  boxes.sort((a, b) => b.width * b.height - a.width * a.height);
  return boxes.slice(0, o.maxBoxes);
}

module.exports = { findTextBoxes, minimumAreaRectangle };
