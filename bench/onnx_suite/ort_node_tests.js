// ONNX Runtime on the ONNX backend node tests (the cases webnn's tests/onnx_suite runs): each case's
// model.onnx in an InferenceSession (onnxruntime-node, CPU, THREADS intra-op threads, sequential),
// fed every test_data_set_N's input_*.pb and checked against its output_*.pb by ONNX's rule
// (numpy.testing.assert_allclose, rtol 1e-3, atol 1e-7; integers, bools and strings exactly; the
// type and the shape too). Writes OUT_FILE in the format of webnn's expected-results files
// (tests/onnx_suite/expected/*.txt), one line per case sorted by name:
//   <case> pass | refused|failed|wrong <reason>
// refused: InferenceSession.create threw; failed: session.run threw, the test data could not be
// read (a sequence or optional, bfloat16, ...), or ONNX Runtime's process died or ran past the
// time limit in the case; wrong: an output differs. Then prints a summary line and a
// machine-readable line (ort-node-tests-json: {...}).
//   NODE_PATH=.../node_modules node ort_node_tests.js CASES_DIR OUT_FILE [--case SUBSTRING]
//        [--threads 2] [--timeout 60]
// onnxruntime-node comes from $ORT_NODE_MODULES (a node_modules folder) when set, else from
// NODE_PATH as bench/models/ort_bench.js finds it; bench/onnx_suite/run_ort_node_tests.sh sets
// both from scripts/fetch-models.sh. The cases run in one child process (a worker), which the main
// process restarts after the case in progress when it crashes or runs past --timeout seconds.
// The .pb files are read by the small protobuf wire-format decoder below (no npm package).
'use strict';
const fs = require('fs');
const path = require('path');
const childProcess = require('child_process');

const RTOL = 1e-3, ATOL = 1e-7;

function ortModule(file) {
  const dir = process.env.ORT_NODE_MODULES;
  return require(dir ? path.join(path.resolve(dir), 'onnxruntime-node', file) : path.join('onnxruntime-node', file));
}

// ---- protobuf wire format ----------------------------------------------------------------------

class Reader {
  constructor(bytes, start = 0, end = bytes.length) {
    this.bytes = bytes;
    this.pos = start;
    this.end = end;
  }
  done() { return this.pos >= this.end; }
  // A varint as a BigInt (up to 10 bytes; a negative int64 takes all 10).
  varint() {
    let result = 0n, shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new Error('truncated varint');
      const byte = this.bytes[this.pos++];
      result |= BigInt(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return BigInt.asUintN(64, result);
      shift += 7n;
    }
    throw new Error('varint longer than 10 bytes');
  }
  take(length) {
    if (length < 0 || this.pos + length > this.end) throw new Error('truncated field');
    const start = this.pos;
    this.pos += length;
    return this.bytes.subarray(start, start + length);
  }
  lengthDelimited() {
    const length = this.varint();
    if (length > BigInt(this.end - this.pos)) throw new Error('truncated length-delimited field');
    return this.take(Number(length));
  }
}

// Elements of a repeated scalar field, packed (wire type 2) or one at a time, onto `list`.
function readRepeated(reader, wireType, kind, list, field) {
  const one = r => {
    if (kind === 'varint') return r.varint();
    const bytes = r.take(kind === 'float' ? 4 : 8);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return kind === 'float' ? view.getFloat32(0, true) : view.getFloat64(0, true);
  };
  const expected = kind === 'varint' ? 0 : kind === 'float' ? 5 : 1;
  if (wireType === 2) {
    const bytes = reader.lengthDelimited();
    const packed = new Reader(bytes);
    while (!packed.done()) list.push(one(packed));
  } else if (wireType === expected) {
    list.push(one(reader));
  } else {
    throw new Error(`field ${field} has wire type ${wireType}`);
  }
}

function skipField(reader, wireType) {
  if (wireType === 0) reader.varint();
  else if (wireType === 1) reader.take(8);
  else if (wireType === 2) reader.lengthDelimited();
  else if (wireType === 5) reader.take(4);
  else throw new Error(`wire type ${wireType} (a group or not protobuf)`);
}

// The fields of a serialized onnx.TensorProto.
function parseTensorProto(bytes) {
  const t = {
    dims: [], dataType: 0, floatData: [], int32Data: [], stringData: [], int64Data: [], name: '',
    rawData: null, doubleData: [], uint64Data: [], dataLocation: 0, hasExternalData: false,
  };
  const reader = new Reader(bytes);
  const expect = (field, wireType, wanted) => {
    if (wireType !== wanted) throw new Error(`field ${field} has wire type ${wireType}`);
  };
  while (!reader.done()) {
    const key = reader.varint();
    const field = Number(key >> 3n), wireType = Number(key & 7n);
    if (field === 0) throw new Error('field number 0');
    switch (field) {
      case 1: readRepeated(reader, wireType, 'varint', t.dims, field); break;
      case 2: expect(field, wireType, 0); t.dataType = Number(BigInt.asIntN(32, reader.varint())); break;
      case 4: readRepeated(reader, wireType, 'float', t.floatData, field); break;
      case 5: readRepeated(reader, wireType, 'varint', t.int32Data, field); break;
      case 6: expect(field, wireType, 2); t.stringData.push(reader.lengthDelimited()); break;
      case 7: readRepeated(reader, wireType, 'varint', t.int64Data, field); break;
      case 8: expect(field, wireType, 2); t.name = Buffer.from(reader.lengthDelimited()).toString('utf8'); break;
      case 9: expect(field, wireType, 2); t.rawData = reader.lengthDelimited(); break;
      case 10: readRepeated(reader, wireType, 'double', t.doubleData, field); break;
      case 11: readRepeated(reader, wireType, 'varint', t.uint64Data, field); break;
      case 13: expect(field, wireType, 2); reader.lengthDelimited(); t.hasExternalData = true; break;
      case 14: expect(field, wireType, 0); t.dataLocation = Number(reader.varint()); break;
      default: skipField(reader, wireType);  // 3 segment, 12 doc_string, 16 metadata_props, ...
    }
  }
  return t;
}

// ONNX data type -> [ort.Tensor type, bytes per element in raw_data, the repeated field holding it].
const ONNX_TYPES = {
  1: ['float32', 4, 'floatData'], 2: ['uint8', 1, 'int32Data'], 3: ['int8', 1, 'int32Data'],
  4: ['uint16', 2, 'int32Data'], 5: ['int16', 2, 'int32Data'], 6: ['int32', 4, 'int32Data'],
  7: ['int64', 8, 'int64Data'], 8: ['string', 0, 'stringData'], 9: ['bool', 1, 'int32Data'],
  10: ['float16', 2, 'int32Data'], 11: ['float64', 8, 'doubleData'], 12: ['uint32', 4, 'uint64Data'],
  13: ['uint64', 8, 'uint64Data'],
};
const ONNX_TYPE_NAMES = {
  14: 'complex64', 15: 'complex128', 16: 'bfloat16', 17: 'float8e4m3fn', 18: 'float8e4m3fnuz',
  19: 'float8e5m2', 20: 'float8e5m2fnuz', 21: 'uint4', 22: 'int4', 23: 'float4e2m1',
};
const ARRAYS = {
  float32: Float32Array, uint8: Uint8Array, int8: Int8Array, uint16: Uint16Array, int16: Int16Array,
  int32: Int32Array, int64: BigInt64Array, bool: Uint8Array, float16: Uint16Array,
  float64: Float64Array, uint32: Uint32Array, uint64: BigUint64Array,
};
// How an element of the typed field becomes the array's element.
const FROM_FIELD = {
  uint8: v => Number(BigInt.asUintN(8, v)), int8: v => Number(BigInt.asIntN(8, v)),
  uint16: v => Number(BigInt.asUintN(16, v)), int16: v => Number(BigInt.asIntN(16, v)),
  int32: v => Number(BigInt.asIntN(32, v)), bool: v => (v ? 1 : 0),
  float16: v => Number(BigInt.asUintN(16, v)), int64: v => BigInt.asIntN(64, v),
  uint32: v => Number(BigInt.asUintN(32, v)), uint64: v => BigInt.asUintN(64, v),
};

// A .pb file as {name, type, dims, data}; throws (a message naming the problem) when the file is not
// a TensorProto this runner reads.
function readTensorFile(file) {
  const t = parseTensorProto(fs.readFileSync(file));
  if (ONNX_TYPE_NAMES[t.dataType] === 'bfloat16') throw new Error('bfloat16 test data not read');
  if (!ONNX_TYPES[t.dataType]) {
    throw new Error(`data type ${t.dataType}${ONNX_TYPE_NAMES[t.dataType] ? ` (${ONNX_TYPE_NAMES[t.dataType]})` : ''} not read`);
  }
  if (t.dataLocation === 1 || t.hasExternalData) throw new Error('tensor data in an external file not read');
  const [type, size, fieldName] = ONNX_TYPES[t.dataType];
  const dims = t.dims.map(d => {
    const value = BigInt.asIntN(64, d);
    if (value < 0n || value > BigInt(2 ** 31)) throw new Error(`dimension ${value}`);
    return Number(value);
  });
  const elements = dims.reduce((a, b) => a * b, 1);
  if (elements > 2 ** 28) throw new Error(`shape [${dims.join(', ')}] too large`);
  let data;
  if (type === 'string') {
    if (t.stringData.length !== elements) {
      throw new Error(`string_data holds ${t.stringData.length} elements, the shape ${elements}`);
    }
    data = t.stringData.map(b => Buffer.from(b).toString('utf8'));
  } else if (t.rawData) {
    if (t.rawData.length !== elements * size) {
      throw new Error(`raw_data holds ${t.rawData.length} bytes, the ${type} shape ${elements * size}`);
    }
    const copy = new Uint8Array(t.rawData);  // a copy, aligned
    data = new ARRAYS[type](copy.buffer, 0, elements);
  } else {
    const values = t[fieldName];
    if (values.length !== elements) {
      const field = fieldName.replace(/[A-Z]/, c => `_${c.toLowerCase()}`);
      throw new Error(`${field} holds ${values.length} elements, the ${type} shape ${elements}`);
    }
    const convert = FROM_FIELD[type];
    data = new ARRAYS[type](elements);
    for (let i = 0; i < elements; i++) data[i] = convert ? convert(values[i]) : values[i];
  }
  return { name: t.name, type, dims, data };
}

// ---- comparison (numpy.testing.assert_allclose, as ONNX's backend test runs it) -----------------

function halfToFloat(h) {
  const sign = h & 0x8000 ? -1 : 1, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 31) return mantissa ? NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

// A number as C++'s ostream writes it with `precision` significant digits (printf's %g).
function formatG(x, precision) {
  if (typeof x === 'bigint') return x.toString();
  if (typeof x === 'string') return JSON.stringify(x);
  if (Number.isNaN(x)) return x < 0 ? '-nan' : 'nan';
  if (!Number.isFinite(x)) return x < 0 ? '-inf' : 'inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa, exp] = x.toExponential(precision - 1).split('e');
  const exponent = Number(exp);
  const strip = s => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  if (exponent < -4 || exponent >= precision) {
    return `${strip(mantissa)}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return strip(x.toFixed(Math.max(0, precision - 1 - exponent)));
}

const bracketed = list => `[${list.join(', ')}]`;

function indexText(dims, flat) {
  const index = new Array(dims.length).fill(0);
  for (let d = dims.length - 1; d >= 0; d--) {
    index[d] = dims[d] ? flat % dims[d] : 0;
    flat = dims[d] ? Math.floor(flat / dims[d]) : 0;
  }
  return bracketed(index);
}

const FLOATING = new Set(['float32', 'float64', 'float16']);

// '' when `actual` (an ort.Tensor) matches `expected` (readTensorFile's), else what differs.
function compare(actual, expected) {
  if (actual.type !== expected.type) return `data type ${actual.type}, expected ${expected.type}`;
  const dims = Array.from(actual.dims, Number);
  if (dims.length !== expected.dims.length || dims.some((d, i) => d !== expected.dims[i])) {
    return `shape ${bracketed(dims)}, expected ${bracketed(expected.dims)}`;
  }
  const elements = expected.dims.reduce((a, b) => a * b, 1);
  if (actual.data.length !== elements || expected.data.length !== elements) {
    return `holds ${actual.data.length} elements, expected ${expected.data.length} (${elements} for its shape)`;
  }
  const floating = FLOATING.has(expected.type);
  const value = expected.type === 'float16' ? halfToFloat : v => v;
  let mismatches = 0, first = '';
  for (let i = 0; i < elements; i++) {
    const a = value(actual.data[i]), e = value(expected.data[i]);
    let same;
    if (floating) {
      if (Number.isNaN(a) || Number.isNaN(e)) same = Number.isNaN(a) && Number.isNaN(e);
      else if (!Number.isFinite(a) || !Number.isFinite(e)) same = a === e;
      else same = Math.abs(a - e) <= ATOL + RTOL * Math.abs(e);
    } else if (expected.type === 'bool') {
      same = !a === !e;
    } else {
      same = a === e;
    }
    if (same) continue;
    if (mismatches++ === 0) {
      first = `element ${indexText(expected.dims, i)} is ${formatG(a, 9)}, expected ${formatG(e, 9)}`;
    }
  }
  if (!mismatches) return '';
  return `${first} (${mismatches} of ${elements} elements differ` +
    `${floating ? ` beyond rtol ${formatG(RTOL, 6)}, atol ${formatG(ATOL, 6)}` : ''})`;
}

// ---- one case ----------------------------------------------------------------------------------

// input_0.pb, input_1.pb, ... in order; throws when one in the middle is missing.
function numberedFiles(dir, prefix) {
  const byIndex = new Map();
  for (const entry of fs.readdirSync(dir)) {
    const m = new RegExp(`^${prefix}(\\d+)\\.pb$`).exec(entry);
    if (m) byIndex.set(Number(m[1]), path.join(dir, entry));
  }
  const files = [];
  for (let i = 0; i < byIndex.size; i++) {
    if (!byIndex.has(i)) throw new Error(`${prefix}${i}.pb is missing`);
    files.push(byIndex.get(i));
  }
  return files;
}

// The error as the results file records it: on one line, the case's own paths relative to it.
function reasonOf(error, caseDir) {
  let message = error && error.message !== undefined ? String(error.message) : String(error);
  for (const prefix of [`${caseDir}/`, caseDir]) message = message.split(prefix).join('');
  return message.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

// Files mapped onto `names` (the session's inputNames or outputNames): file i to names[i], unless
// the file's own name is one of `names`.
function assign(tensors, names, what, setName) {
  if (tensors.length !== names.length) {
    throw new Error(`${setName} has ${tensors.length} ${what}s, the model ${names.length}`);
  }
  const byName = new Map();
  tensors.forEach((t, i) => {
    const name = t.name && names.includes(t.name) ? t.name : names[i];
    if (byName.has(name)) throw new Error(`${setName}: two ${what} files for '${name}'`);
    byName.set(name, t);
  });
  return byName;
}

async function runCase(ort, casesDir, name, threads) {
  const caseDir = path.join(casesDir, name);
  let session;
  try {
    session = await ort.InferenceSession.create(path.join(caseDir, 'model.onnx'), {
      executionProviders: ['cpu'], intraOpNumThreads: threads, interOpNumThreads: 1,
      executionMode: 'sequential', logSeverityLevel: 4,
    });
  } catch (e) {
    return { status: 'refused', reason: reasonOf(e, caseDir) || 'InferenceSession.create threw' };
  }
  try {
    return await runSets(ort, session, caseDir);
  } catch (e) {
    return { status: 'failed', reason: reasonOf(e, caseDir) };
  } finally {
    try { await session.release(); } catch (e) { /* released with the process */ }
  }
}

async function runSets(ort, session, caseDir) {
  const failed = reason => ({ status: 'failed', reason });
  // A sequence, optional or map input or output: its .pb is a SequenceProto or OptionalProto.
  for (const [what, metadata] of [['input', session.inputMetadata], ['output', session.outputMetadata]]) {
    for (const m of metadata || []) {
      if (m && m.isTensor === false) {
        return failed(`test data: the model's ${what} '${m.name}' is not a tensor (a sequence, optional or map), which this runner does not read`);
      }
    }
  }
  const sets = fs.readdirSync(caseDir).filter(e => /^test_data_set_\d+$/.test(e) &&
    fs.statSync(path.join(caseDir, e)).isDirectory()).sort();
  if (!sets.length) return failed('test data: the case has no test_data_set_N folder');
  for (const setName of sets) {
    const dir = path.join(caseDir, setName);
    let inputs, outputs;
    try {
      const read = file => {
        try {
          return readTensorFile(file);
        } catch (e) {
          throw new Error(`${path.basename(file)}: ${e.message}`);
        }
      };
      inputs = assign(numberedFiles(dir, 'input_').map(read), session.inputNames, 'input', setName);
      outputs = assign(numberedFiles(dir, 'output_').map(read), session.outputNames, 'output', setName);
    } catch (e) {
      const message = e.message.startsWith(setName) ? e.message : `${setName}/${e.message}`;
      return failed(`test data: ${message}${/(wire type|truncated|varint|field number 0)/.test(message)
        ? ' (not a tensor: a SequenceProto or OptionalProto?)' : ''}`);
    }
    const feeds = {};
    try {
      for (const [inputName, t] of inputs) feeds[inputName] = new ort.Tensor(t.type, t.data, t.dims);
    } catch (e) {
      return failed(`test data: ${setName}: ort.Tensor: ${reasonOf(e, caseDir)}`);
    }
    let results;
    try {
      results = await session.run(feeds);
    } catch (e) {
      return failed(`${setName}: session.run: ${reasonOf(e, caseDir)}`);
    }
    for (const outputName of session.outputNames) {
      const actual = results[outputName];
      if (!actual || actual.data === undefined) {
        return { status: 'wrong', reason: `${setName} output '${outputName}': ONNX Runtime returned no tensor` };
      }
      const difference = compare(actual, outputs.get(outputName));
      if (difference) return { status: 'wrong', reason: `${setName} output '${outputName}': ${difference}` };
    }
  }
  return { status: 'pass', reason: '' };
}

// ---- worker (runs the cases) and main (restarts the worker after a crash or a time-out) --------

async function worker() {
  const ort = ortModule('');
  ort.env.logLevel = 'fatal';
  const job = await new Promise(resolve => process.once('message', resolve));
  const send = message => new Promise(resolve => process.send(message, () => resolve()));
  for (const name of job.names) {
    await send({ start: name });
    let outcome;
    try {
      outcome = await runCase(ort, job.casesDir, name, job.threads);
    } catch (e) {
      outcome = { status: 'failed', reason: reasonOf(e, path.join(job.casesDir, name)) };
    }
    await send({ done: name, status: outcome.status, reason: outcome.reason });
  }
  process.disconnect();
}

function usage() {
  console.error('usage: node ort_node_tests.js CASES_DIR OUT_FILE [--case SUBSTRING] [--threads 2] [--timeout 60]');
  process.exit(2);
}

// Runs `names` in a worker; resolves when the worker is done or gone, with the names it left.
function runWorker(casesDir, names, threads, timeoutS, results) {
  return new Promise(resolve => {
    const child = childProcess.fork(__filename, ['--worker'], { stdio: ['ignore', 2, 2, 'ipc'] });
    let current = null, timer = null, timedOut = false;
    const finished = new Set();
    child.on('message', m => {
      if (m.start) {
        current = m.start;
        clearTimeout(timer);
        timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, timeoutS * 1000);
      } else if (m.done) {
        clearTimeout(timer);
        results.set(m.done, { status: m.status, reason: m.reason });
        finished.add(m.done);
        current = null;
      }
    });
    child.on('error', e => console.error(`ort-node-tests: worker: ${e.message}`));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (current !== null) {
        results.set(current, {
          status: 'failed',
          reason: timedOut ? `timed out: ONNX Runtime ran past ${timeoutS} s in the case`
            : `ONNX Runtime's process ended (${signal ? `signal ${signal}` : `exit code ${code}`}) in the case`,
        });
        finished.add(current);
      } else if (names.some(n => !finished.has(n)) && !finished.size) {
        // Gone before its first case: count that case, so the next worker moves on.
        const name = names.find(n => !finished.has(n));
        results.set(name, { status: 'failed', reason: `the worker process ended (${signal || code}) before the case` });
        finished.add(name);
      }
      resolve(names.filter(n => !finished.has(n)));
    });
    child.send({ casesDir, names, threads });
  });
}

async function main() {
  const args = process.argv.slice(2);
  const positional = [];
  let filter = '', threads = 2, timeoutS = 60;
  while (args.length) {
    const arg = args.shift();
    if (arg === '--case') filter = args.shift();
    else if (arg === '--threads') threads = Number(args.shift());
    else if (arg === '--timeout') timeoutS = Number(args.shift());
    else if (arg.startsWith('--')) usage();
    else positional.push(arg);
  }
  if (positional.length !== 2 || filter === undefined || !(threads > 0) || !(timeoutS > 0)) usage();
  const casesDir = path.resolve(positional[0]), outFile = positional[1];
  const version = ortModule('package.json').version;
  let names = fs.readdirSync(casesDir).filter(e => fs.existsSync(path.join(casesDir, e, 'model.onnx')));
  names = names.filter(n => n.includes(filter)).sort();
  if (!names.length) {
    console.error(`ort-node-tests: no case${filter ? ` matching '${filter}'` : ''} in ${casesDir}`);
    process.exit(2);
  }
  const results = new Map();
  for (let left = names; left.length;) left = await runWorker(casesDir, left, threads, timeoutS, results);

  const counts = { pass: 0, refused: 0, failed: 0, wrong: 0 };
  const lines = [`# ONNX Runtime ${version} (onnxruntime-node, cpu) on ${casesDir}: <case> pass | refused|failed|wrong <reason>`];
  for (const name of names) {
    const r = results.get(name) || { status: 'failed', reason: 'no result' };
    counts[r.status]++;
    lines.push(r.reason ? `${name} ${r.status} ${r.reason}` : `${name} ${r.status}`);
  }
  fs.writeFileSync(outFile, `${lines.join('\n')}\n`);
  console.log(`ort-node-tests: ${names.length} cases: ${counts.pass} pass, ${counts.refused} refused, ` +
    `${counts.failed} failed, ${counts.wrong} wrong`);
  console.log(`ort-node-tests-json: ${JSON.stringify({ cases: names.length, ...counts, version })}`);
}

if (process.argv[2] === '--worker') {
  worker().catch(e => { console.error(`ort-node-tests worker: ${e.stack || e}`); process.exit(3); });
} else {
  main().catch(e => { console.error(`ort-node-tests: ${e.stack || e}`); process.exit(3); });
}
