#!/usr/bin/env node
// A two-layer MLP built weightless through the WebNN JS API, its weights streamed in after
// build() from a safetensors file (written here first, so the example needs nothing else).
//   npm install ./bindings/node && node examples/node/weightless_mlp.js
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

function requireWebnn() {
  try {
    return require('webnn-cpp');
  } catch {
    return require(path.join(__dirname, '../../bindings/node'));  // run from the repository
  }
}
const { ml, MLGraphBuilder } = requireWebnn();

// A safetensors file of float32 tensors {name: [shape, Float32Array]}.
function writeSafetensors(file, tensors) {
  const header = {};
  let offset = 0;
  for (const [name, [shape, data]] of Object.entries(tensors)) {
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + data.byteLength] };
    offset += data.byteLength;
  }
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  fs.writeFileSync(file, Buffer.concat([length, json, ...Object.values(tensors).map(([, d]) => Buffer.from(d.buffer))]));
}

async function main() {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'webnn-example-')), 'mlp.safetensors');
  const w1 = Float32Array.from({ length: 4 * 8 }, (_, i) => ((i % 5) - 2) / 4);
  const w2 = Float32Array.from({ length: 8 * 3 }, (_, i) => ((i % 3) - 1) / 2);
  writeSafetensors(file, { 'fc1.weight': [[4, 8], w1], 'fc2.weight': [[8, 3], w2] });

  // The weightless path: constants by descriptor and label, no bytes until after build().
  const context = await ml.createContext();
  const builder = new MLGraphBuilder(context);
  const x = builder.input('x', { dataType: 'float32', shape: [1, 4] });
  const fc1 = builder.constant({ dataType: 'float32', shape: [4, 8] }, { label: 'fc1.weight' });
  const fc2 = builder.constant({ dataType: 'float32', shape: [8, 3] }, { label: 'fc2.weight' });
  const graph = await builder.build({ y: builder.softmax(builder.matmul(builder.relu(builder.matmul(x, fc1)), fc2), 1) });
  console.log('pending after build:', graph.pendingConstants().map((c) => c.label).join(', '));

  await graph.loadConstants(file, { onProgress: (done, total) => console.log(`loaded ${done} of ${total} bytes`) });
  console.log('pending after loadConstants:', graph.pendingConstants().length);

  const input = await context.createTensor({ dataType: 'float32', shape: [1, 4], writable: true });
  const output = await context.createTensor({ dataType: 'float32', shape: [1, 3], readable: true });
  context.writeTensor(input, new Float32Array([1, 2, 3, 4]));
  context.dispatch(graph, { x: input }, { y: output });
  const y = new Float32Array(await context.readTensor(output));
  console.log('y =', Array.from(y, (v) => v.toFixed(4)).join(' '));
  console.log('memory:', context.memoryStats());
  fs.rmSync(path.dirname(file), { recursive: true });
}

main().catch((error) => {
  console.error(`${error.name}: ${error.message}`);
  process.exit(1);
});
