// Runs ONNX Runtime (onnxruntime-node, CPU) on .npy inputs and writes/compares the outputs.
//   node ort_reference.js MODEL --input NAME=FILE.npy... [--output NAME=FILE.npy]...
//        [--compare NAME=FILE.npy]... [--tolerance 1e-4]
// NODE_PATH (or the module cache folder) must hold onnxruntime-node. --compare prints the relative
// L2 error of each output against the given file and exits 1 when one exceeds the tolerance.
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

const DTYPES = {
  '<f4': ['float32', Float32Array], '<f2': ['float16', Uint16Array], '<i8': ['int64', BigInt64Array],
  '<i4': ['int32', Int32Array], '|u1': ['uint8', Uint8Array], '|b1': ['bool', Uint8Array],
};

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.toString('latin1', 1, 6) !== 'NUMPY') throw new Error(`${file}: not a .npy file`);
  const major = buf[6];
  const headerLength = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', start, start + headerLength);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map(s => s.trim()).filter(s => s).map(Number);
  const [type, Array] = DTYPES[descr] || (() => { throw new Error(`${file}: dtype ${descr}`); })();
  const offset = start + headerLength;
  const data = new Array(buf.buffer.slice(buf.byteOffset + offset, buf.byteOffset + buf.length));
  return { type, shape, data };
}

function writeNpy(file, tensor) {
  const descr = Object.keys(DTYPES).find(k => DTYPES[k][0] === tensor.type);
  const shape = tensor.dims.length === 1 ? `${tensor.dims[0]},` : tensor.dims.join(', ');
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape}), }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1; prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const data = Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
  fs.writeFileSync(file, Buffer.concat([prefix, Buffer.from(header, 'latin1'), data]));
}

function relativeL2(actual, expected) {
  let diff = 0, norm = 0;
  for (let i = 0; i < expected.length; i++) {
    const e = Number(expected[i]), a = Number(actual[i]);
    diff += (a - e) * (a - e);
    norm += e * e;
  }
  return Math.sqrt(diff) / Math.max(Math.sqrt(norm), 1e-30);
}

async function main() {
  const args = process.argv.slice(2);
  const model = args.shift();
  const inputs = {}, outputs = {}, compare = {};
  let tolerance = 1e-4;
  while (args.length) {
    const flag = args.shift(), value = args.shift();
    const at = value.lastIndexOf('=');
    const [name, file] = [value.slice(0, at), value.slice(at + 1)];
    if (flag === '--input') inputs[name] = readNpy(file);
    else if (flag === '--output') outputs[name] = file;
    else if (flag === '--compare') compare[name] = file;
    else if (flag === '--tolerance') tolerance = Number(value);
    else throw new Error(`unknown option ${flag}`);
  }
  const session = await ort.InferenceSession.create(model, { executionProviders: ['cpu'] });
  const feeds = {};
  for (const [name, t] of Object.entries(inputs)) feeds[name] = new ort.Tensor(t.type, t.data, t.shape);
  const results = await session.run(feeds);
  let failed = false;
  for (const name of session.outputNames) {
    if (outputs[name]) writeNpy(outputs[name], results[name]);
    if (compare[name]) {
      const ours = readNpy(compare[name]);
      const theirs = results[name];
      if (ours.shape.join(',') !== theirs.dims.join(',')) {
        console.log(`${name}: shape [${ours.shape}] differs from ONNX Runtime's [${theirs.dims}]`);
        failed = true;
        continue;
      }
      const error = relativeL2(ours.data, theirs.data);
      const ok = error <= tolerance;
      console.log(`${name}: relative L2 error ${error.toExponential(3)} (tolerance ${tolerance}) ${ok ? 'ok' : 'FAILED'}`);
      failed = failed || !ok;
    }
  }
  process.exit(failed ? 1 : 0);
}

main().catch(e => { console.error(`ort_reference: ${e.message}`); process.exit(3); });
