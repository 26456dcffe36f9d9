// ONNX Runtime's side of the model benchmark (bench/models): creates an InferenceSession (CPU,
// THREADS intra-op threads, sequential), runs it once (time to first result = session create +
// first run), then ITERATIONS more runs for the median, and compares each output with webnn's
// .npy (relative L2). Prints one line: ort-json: {...}, with the process's own peak RSS (VmHWM).
//   NODE_PATH=.../node_modules node ort_bench.js MODEL --threads 2 --iterations 3
//        --input NAME=FILE.npy... [--compare NAME=FILE.npy]...
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

const DTYPES = { '<f4': ['float32', Float32Array], '<i8': ['int64', BigInt64Array], '<i4': ['int32', Int32Array] };

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
  while (args.length) {
    const flag = args.shift(), value = args.shift();
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--threads') { threads = Number(value); continue; }
    if (flag === '--iterations') { iterations = Number(value); continue; }
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
    relL2 = Math.max(relL2, relativeL2(readNpy(file).data, results[name].data));
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
