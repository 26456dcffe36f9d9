#!/usr/bin/env node
// The seed's scenario in JavaScript: a safetensors MLP of W bytes (float32 [4096, 4096] matmul
// weights, 64 MiB each) loaded from JS three ways, each in a fresh `node` process:
//   a  classic: fs.readFileSync, then constant(desc, view) per tensor, build
//   b  hollow + writeConstantData: build weightless, then chunks read with fs.readSync into one
//      reused 16 MiB buffer, each written at its offset
//   c  hollow + loadConstants(path): build weightless, then stream natively
// Reported: peak RSS (VmHWM) minus the process's own baseline (VmHWM after require('webnn-cpp') and
// createContext, before anything of the model), over W. Each child then runs one inference; the
// three outputs must be equal.
//   node bench/memory.js [--size 1G] [--dir /tmp] [--keep]
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const DIM = 4096;
const TENSOR_BYTES = DIM * DIM * 4;
const CHUNK_BYTES = 16 << 20;

function vmHWM() {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

function parseSize(text) {
  const m = /^(\d+)([KMG]?)$/i.exec(text);
  if (!m) throw new Error(`bad size ${text}`);
  return Number(m[1]) * { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[m[2].toUpperCase()];
}

// Writes the model: `layers` tensors "layer<i>.weight", values from a formula that keeps the
// activations bounded; the data start 64-byte aligned.
function writeModel(file, layers) {
  const header = {};
  for (let i = 0; i < layers; i++) {
    header[`layer${i}.weight`] = { dtype: 'F32', shape: [DIM, DIM], data_offsets: [i * TENSOR_BYTES, (i + 1) * TENSOR_BYTES] };
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((64 - ((8 + json.length) % 64)) % 64);
  const fd = fs.openSync(file, 'w');
  const prefix = Buffer.alloc(8);
  prefix.writeBigUInt64LE(BigInt(json.length));
  fs.writeSync(fd, prefix);
  fs.writeSync(fd, json);
  const tensor = new Float32Array(DIM * DIM);
  for (let layer = 0; layer < layers; layer++) {
    for (let i = 0; i < tensor.length; i++) tensor[i] = (((i * 7 + layer * 13) % 17) - 8) / (8 * DIM);
    fs.writeSync(fd, new Uint8Array(tensor.buffer));
  }
  fs.closeSync(fd);
  return 8 + json.length;
}

// One path, in this (fresh) process: prints a JSON line.
async function child(pathName, file, layers, dataStart) {
  const webnn = require('..');
  const context = await webnn.ml.createContext();
  const baseline = vmHWM();
  const started = process.hrtime.bigint();
  const builder = new webnn.MLGraphBuilder(context);
  const descriptor = { dataType: 'float32', shape: [DIM, DIM] };
  let x = builder.input('x', { dataType: 'float32', shape: [1, DIM] });
  const input = x;
  const constants = [];
  let bytes;
  if (pathName === 'a') bytes = fs.readFileSync(file);
  for (let i = 0; i < layers; i++) {
    const w = pathName === 'a'
      ? builder.constant(descriptor, bytes.subarray(dataStart + i * TENSOR_BYTES, dataStart + (i + 1) * TENSOR_BYTES))
      : builder.constant(descriptor, { label: `layer${i}.weight` });
    constants.push(w);
    x = builder.matmul(x, w);
  }
  const graph = await builder.build({ y: x });
  if (pathName === 'b') {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    const fd = fs.openSync(file, 'r');
    for (let i = 0; i < layers; i++) {
      for (let offset = 0; offset < TENSOR_BYTES; offset += CHUNK_BYTES) {
        const n = Math.min(CHUNK_BYTES, TENSOR_BYTES - offset);
        if (fs.readSync(fd, chunk, 0, n, dataStart + i * TENSOR_BYTES + offset) !== n) throw new Error('short read');
        graph.writeConstantData(constants[i], offset, chunk.subarray(0, n));
      }
    }
    fs.closeSync(fd);
  } else if (pathName === 'c') {
    await graph.loadConstants(file);
  }
  bytes = undefined;
  const loadSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peak = vmHWM();
  if (graph.pendingConstants().length) throw new Error('constants still pending');
  const xt = await context.createTensor({ dataType: 'float32', shape: [1, DIM], writable: true });
  const yt = await context.createTensor({ dataType: 'float32', shape: [1, DIM], readable: true });
  context.writeTensor(xt, new Float32Array(DIM).map((_, i) => ((i % 9) - 4) / 4));
  context.dispatch(graph, { x: xt }, { y: yt });
  const y = new Float32Array(await context.readTensor(yt));
  let checksum = 0;
  for (let i = 0; i < y.length; i++) checksum += y[i] * ((i % 5) + 1);
  void input;
  console.log(JSON.stringify({ path: pathName, baseline, peak, loadSeconds, checksum, peakAfterInference: vmHWM() }));
}

function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(args[1], args[2], Number(args[3]), Number(args[4]));
  let size = parseSize('1G');
  let dir = os.tmpdir();
  let keep = false;
  while (args.length) {
    const flag = args.shift();
    if (flag === '--size') size = parseSize(args.shift());
    else if (flag === '--dir') dir = args.shift();
    else if (flag === '--keep') keep = true;
    else throw new Error(`unknown option ${flag}`);
  }
  const layers = Math.max(1, Math.round(size / TENSOR_BYTES));
  const W = layers * TENSOR_BYTES;
  const file = path.join(dir, `webnn-node-mlp-${layers}x4096.safetensors`);
  console.log(`model: ${layers} x float32 [4096, 4096] = ${W / 2 ** 20} MiB (${file})`);
  const dataStart = writeModel(file, layers);
  fs.readFileSync(file, { flag: 'r' }).length;  // warm the page cache (one read; then freed)
  const rows = [];
  for (const p of ['a', 'b', 'c']) {
    const out = execFileSync(process.execPath, [__filename, '--child', p, file, String(layers), String(dataStart)],
      { encoding: 'utf8', maxBuffer: 1 << 20 });
    rows.push(JSON.parse(out.trim().split('\n').pop()));
  }
  const names = { a: 'a: classic constant(desc, buffer) after fs.readFileSync',
                  b: 'b: hollow + writeConstantData, 16 MiB reused buffer',
                  c: 'c: hollow + loadConstants(path)' };
  const targets = { a: '(comparison)', b: '<= 1.05', c: '<= 1.03' };
  console.log(`\n| path | baseline | peak RSS | (peak - baseline) / W | target | load s |`);
  console.log('|---|---:|---:|---:|---|---:|');
  for (const r of rows) {
    const ratio = (r.peak - r.baseline) / W;
    console.log(`| ${names[r.path]} | ${(r.baseline / 2 ** 20).toFixed(0)} MiB | ${(r.peak / 2 ** 20).toFixed(0)} MiB | ` +
                `${ratio.toFixed(3)} | ${targets[r.path]} | ${r.loadSeconds.toFixed(2)} |`);
  }
  const same = rows.every((r) => r.checksum === rows[0].checksum);
  console.log(`\ninference outputs ${same ? 'equal' : 'DIFFER'} across the paths (checksum ${rows[0].checksum})`);
  if (!keep) fs.rmSync(file);
  process.exit(same ? 0 : 1);
}

main();
