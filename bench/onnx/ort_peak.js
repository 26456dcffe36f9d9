// ONNX Runtime's side of the ONNX memory benchmark: loads MODEL into an InferenceSession (CPU),
// runs it once on a seeded random float32 input for every input, optionally writes the first
// output as .npy, and prints the process's peak resident memory (VmHWM from /proc/self/status)
// and its current RSS (process.memoryUsage().rss), in bytes and MiB.
//   NODE_PATH=.../node_modules node ort_peak.js MODEL [--x FILE.npy] [--output FILE.npy]
//        [--compare FILE.npy]
// --x: read the model's first input from a .npy file (float32) instead. --compare: after the
// memory is read, print the relative L2 error of the first output against FILE.npy (exit 1 when it
// exceeds 1e-4).
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

function vmHwm() {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

function readNpyFloat32(file) {
  const buf = fs.readFileSync(file);
  const headerLength = buf.readUInt16LE(8);
  const header = buf.toString('latin1', 10, 10 + headerLength);
  if (!/'descr':\s*'<f4'/.test(header)) throw new Error(`${file}: not float32`);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map(s => s.trim()).filter(s => s).map(Number);
  const start = 10 + headerLength;
  return { shape, data: new Float32Array(buf.buffer.slice(buf.byteOffset + start, buf.byteOffset + buf.length)) };
}

function writeNpy(file, tensor) {
  const shape = tensor.dims.length === 1 ? `${tensor.dims[0]},` : tensor.dims.join(', ');
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape}), }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix.writeUInt16LE(header.length, 8);
  const data = Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
  fs.writeFileSync(file, Buffer.concat([prefix, Buffer.from(header, 'latin1'), data]));
}

async function main() {
  const args = process.argv.slice(2);
  const model = args.shift();
  let output = null, given = null, compare = null;
  while (args.length) {
    const flag = args.shift();
    if (flag === '--output') output = args.shift();
    else if (flag === '--x') given = args.shift();
    else if (flag === '--compare') compare = args.shift();
    else throw new Error(`unknown option ${flag}`);
  }
  const before = vmHwm();
  let start = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(model, { executionProviders: ['cpu'] });
  const loadMs = Number(process.hrtime.bigint() - start) / 1e6;
  const feeds = {};
  let seed = 1;
  const random = () => {  // xorshift32
    seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0;
    return seed / 4294967296;
  };
  for (const name of session.inputNames) {
    if (given && Object.keys(feeds).length === 0) {
      const x = readNpyFloat32(given);
      feeds[name] = new ort.Tensor('float32', x.data, x.shape);
      continue;
    }
    // The benchmark's models take [1, D] float32; D from the first MatMul's weight is not visible
    // here, so the input metadata gives it.
    const meta = session.inputMetadata ? session.inputMetadata.find(m => m.name === name) : null;
    const dims = meta && meta.shape ? meta.shape.map(d => (typeof d === 'number' ? d : 1)) : [1, 4096];
    const n = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = random();
    feeds[name] = new ort.Tensor('float32', data, dims);
  }
  start = process.hrtime.bigint();
  const results = await session.run(feeds);
  const runMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (output) writeNpy(output, results[session.outputNames[0]]);
  const peak = vmHwm(), rss = process.memoryUsage().rss;
  const mib = b => (b / 1048576).toFixed(1);
  console.log(`ort: session ${loadMs.toFixed(0)} ms, run ${runMs.toFixed(0)} ms`);
  console.log(`ort-memory: peak RSS (VmHWM) ${peak} bytes (${mib(peak)} MiB); rss now ${rss} bytes (${mib(rss)} MiB); node before the session ${mib(before)} MiB`);
  if (compare) {
    const ours = readNpyFloat32(compare).data, theirs = results[session.outputNames[0]].data;
    let diff = 0, norm = 0;
    for (let i = 0; i < theirs.length; i++) {
      diff += (ours[i] - theirs[i]) ** 2;
      norm += theirs[i] ** 2;
    }
    const error = ours.length === theirs.length ? Math.sqrt(diff) / Math.max(Math.sqrt(norm), 1e-30) : Infinity;
    console.log(`ort-compare: relative L2 error ${error.toExponential(3)} (tolerance 1e-4) ${error <= 1e-4 ? 'ok' : 'FAILED'}`);
    if (!(error <= 1e-4)) process.exit(1);
  }
}

main().catch(e => { console.error(`ort_peak: ${e.message}`); process.exit(3); });
