// ONNX Runtime's side of the model benchmark (bench/models): creates an InferenceSession (CPU,
// THREADS intra-op threads, sequential), runs it once (time to first result = session create +
// first run), then ITERATIONS more runs for the median, and compares each output with webnn's
// .npy (relative L2). Prints one line: ort-json: {...}, with the process's own peak RSS (VmHWM).
//   NODE_PATH=.../node_modules node ort_bench.js MODEL --threads 2 --iterations 3
//        --input NAME=FILE.npy... [--compare NAME=FILE.npy]... [--save-outputs DIR]
// float16 .npy files ('<f2') feed 'float16' tensors (Uint16Array bits); float16 outputs are
// decoded for the comparison, which may mix float16 and float32 files. --save-outputs writes the
// outputs of the first run as DIR/NAME.npy (names as `webnn run` writes them).
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

const DTYPES = {
  '<f4': ['float32', Float32Array], '<f2': ['float16', Uint16Array], '<i8': ['int64', BigInt64Array],
  '<i4': ['int32', Int32Array], '|u1': ['uint8', Uint8Array],
};

// The number a float16 bit pattern holds.
function halfToFloat(h) {
  const sign = h & 0x8000 ? -1 : 1, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 31) return mantissa ? NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

// A tensor's (or .npy's) values as numbers: float16 bits decoded (ORT gives Uint16Array for
// 'float16' where the runtime has no Float16Array).
const valuesOf = (type, data) => (type === 'float16' && data instanceof Uint16Array
  ? Float64Array.from(data, halfToFloat) : data);

function readNpy(file) {
  const buf = fs.readFileSync(file);
  const major = buf[6];
  const headerLength = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', start, start + headerLength);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map(s => s.trim()).filter(s => s).map(Number);
  if (!DTYPES[descr]) throw new Error(`${file}: dtype ${descr} not supported`);
  const [type, Array] = DTYPES[descr];
  const offset = start + headerLength;
  return { type, shape, data: new Array(buf.buffer.slice(buf.byteOffset + offset, buf.byteOffset + buf.length)) };
}

// Writes an ORT output tensor as .npy (version 1.0), in its own dtype.
function writeNpy(file, tensor) {
  const descr = Object.keys(DTYPES).find(d => DTYPES[d][0] === tensor.type);
  if (!descr) throw new Error(`${file}: output type ${tensor.type} not supported`);
  const dims = tensor.dims.length === 1 ? `${tensor.dims[0]},` : tensor.dims.join(', ');
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${dims}), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const prefix = Buffer.alloc(10);
  Buffer.from('\x93NUMPY', 'latin1').copy(prefix);
  prefix[6] = 1;
  prefix.writeUInt16LE(header.length, 8);
  const data = tensor.data;
  fs.writeFileSync(file, Buffer.concat([prefix, Buffer.from(header, 'latin1'),
    Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

const fileNameFor = name => `${name.replace(/[^A-Za-z0-9._-]/g, '_')}.npy`;

function relativeL2(actual, expected) {
  if (actual.length !== expected.length) return Infinity;
  let diff = 0, norm = 0;
  for (let i = 0; i < expected.length; i++) {
    const e = Number(expected[i]), a = Number(actual[i]);
    diff += (a - e) * (a - e);
    norm += e * e;
  }
  return Math.sqrt(diff) / Math.max(Math.sqrt(norm), 1e-30);
}

function vmHwm() {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

const ms = start => Number(process.hrtime.bigint() - start) / 1e6;

async function main() {
  const args = process.argv.slice(2);
  const model = args.shift();
  let threads = 2, iterations = 3;
  const inputs = {}, compare = {};
  let saveOutputs = '';
  while (args.length) {
    const flag = args.shift(), value = args.shift();
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--threads') { threads = Number(value); continue; }
    if (flag === '--iterations') { iterations = Number(value); continue; }
    if (flag === '--save-outputs') { saveOutputs = value; continue; }
    const at = value.lastIndexOf('=');
    const [name, file] = [value.slice(0, at), value.slice(at + 1)];
    if (flag === '--input') inputs[name] = readNpy(file);
    else if (flag === '--compare') compare[name] = file;
    else throw new Error(`unknown option ${flag}`);
  }
  const feeds = {};
  for (const [name, t] of Object.entries(inputs)) feeds[name] = new ort.Tensor(t.type, t.data, t.shape);

  let start = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'], intraOpNumThreads: threads, interOpNumThreads: 1,
    executionMode: 'sequential',
  });
  const sessionMs = ms(start);
  start = process.hrtime.bigint();
  const results = await session.run(feeds);
  const firstRunMs = ms(start);
  if (saveOutputs) for (const [name, t] of Object.entries(results)) writeNpy(`${saveOutputs}/${fileNameFor(name)}`, t);
  const steady = [];
  for (let i = 0; i < iterations; i++) {
    start = process.hrtime.bigint();
    await session.run(feeds);
    steady.push(ms(start));
  }
  steady.sort((a, b) => a - b);
  let relL2 = 0;
  for (const [name, file] of Object.entries(compare)) {
    if (!results[name]) throw new Error(`ONNX Runtime has no output '${name}'`);
    const expected = readNpy(file), actual = results[name];
    relL2 = Math.max(relL2, relativeL2(valuesOf(expected.type, expected.data), valuesOf(actual.type, actual.data)));
  }
  const figures = {
    ort_version: require('onnxruntime-node/package.json').version, threads,
    session_ms: sessionMs, first_run_ms: firstRunMs, dispatches: steady.length,
    median_ms: steady.length ? steady[Math.floor(steady.length / 2)] : firstRunMs,
    peak_rss_bytes: vmHwm(),
    rel_l2: !Object.keys(compare).length ? null : Number.isFinite(relL2) ? relL2 : 'shape mismatch',
  };
  console.log(`ort-json: ${JSON.stringify(figures)}`);
}

main().catch(e => { console.error(`ort_bench: ${e.message}`); process.exit(3); });
