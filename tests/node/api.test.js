// The JS API's semantics: promises, errors and their names, destroyed objects, the weightless
// proposal's rules, typed-array checks, opSupportLimits, the globals.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const webnn = require('../../bindings/node');
const { writeSafetensors, expectError } = require('./helpers');

const { ml, MLGraphBuilder, MLContext, MLOperand, MLGraph, MLTensor } = webnn;
const f32 = (shape) => ({ dataType: 'float32', shape });

async function run(context, graph, inputs, outputShapes) {
  const inputTensors = {};
  for (const [name, data] of Object.entries(inputs)) {
    const shape = data.shape;
    inputTensors[name] = await context.createTensor({ dataType: data.dataType || 'float32', shape, writable: true });
    context.writeTensor(inputTensors[name], data.values);
  }
  const outputTensors = {};
  for (const [name, d] of Object.entries(outputShapes)) {
    outputTensors[name] = await context.createTensor({ ...d, readable: true });
  }
  context.dispatch(graph, inputTensors, outputTensors);
  const results = {};
  for (const name of Object.keys(outputShapes)) results[name] = await context.readTensor(outputTensors[name]);
  return results;
}

// y = x (1x2) . w (2x2), w hollow.
async function hollowMatmul(context) {
  const builder = new MLGraphBuilder(context);
  const x = builder.input('x', f32([1, 2]));
  const w = builder.constant(f32([2, 2]), { label: 'fc.weight' });
  const graph = await builder.build({ y: builder.matmul(x, w) });
  return { graph, w };
}

test('promises: createContext, build, createTensor and readTensor resolve to the interfaces', async () => {
  const contextPromise = ml.createContext();
  assert.ok(contextPromise instanceof Promise);
  const context = await contextPromise;
  assert.ok(context instanceof MLContext);
  const builder = new MLGraphBuilder(context);
  const x = builder.input('x', f32([2]));
  assert.ok(x instanceof MLOperand);
  assert.strictEqual(x.dataType, 'float32');
  assert.deepStrictEqual([...x.shape], [2]);
  const buildPromise = builder.build({ y: builder.relu(x) });
  assert.ok(buildPromise instanceof Promise);
  const graph = await buildPromise;
  assert.ok(graph instanceof MLGraph);
  const tensor = await context.createTensor({ dataType: 'float32', shape: [2], readable: true, writable: true });
  assert.ok(tensor instanceof MLTensor);
  assert.deepStrictEqual([tensor.dataType, [...tensor.shape], tensor.readable, tensor.writable], ['float32', [2], true, true]);
  const out = await context.createTensor({ dataType: 'float32', shape: [2], readable: true });
  context.writeTensor(tensor, new Float32Array([-1, 3]));
  context.dispatch(graph, { x: tensor }, { y: out });
  const buffer = await context.readTensor(out);
  assert.ok(buffer instanceof ArrayBuffer);
  assert.deepStrictEqual([...new Float32Array(buffer)], [0, 3]);
  // The BYOB overload fills the caller's buffer and resolves to undefined.
  const target = new Float32Array(2);
  assert.strictEqual(await context.readTensor(out, target), undefined);
  assert.deepStrictEqual([...target], [0, 3]);
  // Any view of the right byte length (ONNX Runtime Web reads into an Int8Array of wasm memory).
  const bytes = new Int8Array(8);
  await context.readTensor(out, bytes);
  assert.deepStrictEqual([...new Float32Array(bytes.buffer)], [0, 3]);
  await expectError('TypeError', () => context.readTensor(out, new Int8Array(4)), /holds 4 bytes/);
});

test('the interfaces have no public constructors, except MLGraphBuilder', async () => {
  for (const Interface of [MLContext, MLOperand, MLGraph, MLTensor]) {
    assert.throws(() => new Interface(), TypeError);
  }
  assert.throws(() => new MLGraphBuilder({}), TypeError);
});

test('builder validation errors are real TypeErrors, naming the method', async () => {
  const context = await ml.createContext();
  const builder = new MLGraphBuilder(context);
  const a = builder.input('a', f32([2, 3]));
  const b = builder.input('b', f32([4, 5]));
  await expectError('TypeError', () => builder.matmul(a, b));
  await expectError('TypeError', () => builder.add(a, 'b'), /not an MLOperand/);
  await expectError('TypeError', () => builder.input('c', { dataType: 'float33', shape: [1] }), /float33/);
  await expectError('TypeError', () => builder.conv2d(a, a, { inputLayout: 'nwhc' }), /nwhc/);
  await expectError('TypeError', () => builder.softmax(a, -1), /axis/);
  await expectError('TypeError', () => builder.elu(a, { alpha: NaN }), /alpha/);
  const other = new MLGraphBuilder(context);
  await expectError('TypeError', () => other.relu(a), /another MLGraphBuilder/);
});

test('options dictionaries: spec member names and defaults, label', async () => {
  const context = await ml.createContext();
  const builder = new MLGraphBuilder(context);
  const x = builder.input('x', f32([1, 1, 4, 4]));
  const filter = builder.constant(f32([1, 1, 3, 3]), new Float32Array(9).fill(1));
  const conv = builder.conv2d(x, filter, { padding: [1, 1, 1, 1], strides: [2, 2], label: 'conv' });
  assert.deepStrictEqual([...conv.shape], [1, 1, 2, 2]);
  const pooled = builder.averagePool2d(x, { windowDimensions: [2, 2], strides: [2, 2] });
  assert.deepStrictEqual([...pooled.shape], [1, 1, 2, 2]);
  const reduced = builder.reduceSum(x, { axes: [2, 3], keepDimensions: true });
  assert.deepStrictEqual([...reduced.shape], [1, 1, 1, 1]);
  const parts = builder.split(x, 2, { axis: 3 });
  assert.strictEqual(parts.length, 2);
  assert.deepStrictEqual([...parts[1].shape], [1, 1, 4, 2]);
  const clamped = builder.clamp(x, { minValue: 0, maxValue: 6 });
  const graph = await builder.build({ conv, clamped });
  const input = new Float32Array(16).map((_, i) => i - 4);
  const { conv: c, clamped: cl } = await run(context, graph, { x: { shape: [1, 1, 4, 4], values: input } },
    { conv: f32([1, 1, 2, 2]), clamped: f32([1, 1, 4, 4]) });
  // Top-left window (padding 1): x[0..1][0..1] = -4, -3, 0, 1.
  assert.strictEqual(new Float32Array(c)[0], -6);
  assert.deepStrictEqual([...new Float32Array(cl)].slice(0, 6), [0, 0, 0, 0, 0, 1]);
});

test('every builder method of the spec is there', async () => {
  const methods = ['argMin', 'argMax', 'batchNormalization', 'cast', 'clamp', 'concat', 'conv2d',
    'convTranspose2d', 'cumulativeSum', 'add', 'sub', 'mul', 'div', 'max', 'min', 'pow', 'equal',
    'notEqual', 'greater', 'greaterOrEqual', 'lesser', 'lesserOrEqual', 'logicalNot', 'logicalAnd',
    'logicalOr', 'logicalXor', 'abs', 'ceil', 'cos', 'erf', 'exp', 'floor', 'identity', 'isInfinite',
    'isNaN', 'log', 'neg', 'reciprocal', 'roundEven', 'sign', 'sin', 'sqrt', 'tan',
    'dequantizeLinear', 'quantizeLinear', 'elu', 'expand', 'gather', 'gatherElements', 'gatherND',
    'gelu', 'gemm', 'gru', 'gruCell', 'hardSigmoid', 'hardSwish', 'instanceNormalization',
    'layerNormalization', 'leakyRelu', 'linear', 'lstm', 'lstmCell', 'matmul', 'pad',
    'averagePool2d', 'l2Pool2d', 'maxPool2d', 'prelu', 'reduceL1', 'reduceL2', 'reduceLogSum',
    'reduceLogSumExp', 'reduceMax', 'reduceMean', 'reduceMin', 'reduceProduct', 'reduceSum',
    'reduceSumSquare', 'relu', 'resample2d', 'reshape', 'reverse', 'scatterElements', 'scatterND',
    'sigmoid', 'slice', 'softmax', 'softplus', 'softsign', 'split', 'tanh', 'tile', 'transpose',
    'triangular', 'where', 'input', 'constant', 'build'];
  const missing = methods.filter((m) => typeof MLGraphBuilder.prototype[m] !== 'function');
  assert.deepStrictEqual(missing, []);
});

test('build() twice, and builder calls after build(), throw InvalidStateError', async () => {
  const context = await ml.createContext();
  const builder = new MLGraphBuilder(context);
  const x = builder.input('x', f32([1]));
  await builder.build({ y: builder.relu(x) });
  await expectError('InvalidStateError', () => builder.build({ y: x }));
  await expectError('InvalidStateError', () => builder.relu(x));
  await expectError('InvalidStateError', () => builder.input('z', f32([1])));
});

test('dispatch validates synchronously: names, descriptors, duplicates, readable/writable', async () => {
  const context = await ml.createContext();
  const builder = new MLGraphBuilder(context);
  const graph = await builder.build({ y: builder.relu(builder.input('x', f32([2]))) });
  const x = await context.createTensor({ dataType: 'float32', shape: [2], writable: true });
  const y = await context.createTensor({ dataType: 'float32', shape: [2], readable: true });
  const wrong = await context.createTensor({ dataType: 'float32', shape: [3], readable: true });
  await expectError('TypeError', () => context.dispatch(graph, { x }, { y: wrong }), /expects float32 \[2\]/);
  await expectError('TypeError', () => context.dispatch(graph, { z: x }, { y }), /no input named 'z'/);
  await expectError('TypeError', () => context.dispatch(graph, { x }, {}));
  await expectError('TypeError', () => context.dispatch(graph, { x }, { y: x }), /more than once/);
  await expectError('TypeError', () => context.writeTensor(y, new Float32Array(2)), /not writable/);
  await expectError('TypeError', () => context.readTensor(x), /not readable/);
  await expectError('TypeError', () => context.writeTensor(x, new Float32Array(3)), /holds 12 bytes/);
  await expectError('TypeError', () => context.writeTensor(x, new Int32Array(2)), /Int32Array/);
  const otherContext = await ml.createContext();
  const foreign = await otherContext.createTensor({ dataType: 'float32', shape: [2], writable: true });
  await expectError('TypeError', () => context.dispatch(graph, { x: foreign }, { y }), /another MLContext/);
});

test('writeTensor copies the bytes at the call', async () => {
  const context = await ml.createContext();
  const builder = new MLGraphBuilder(context);
  const graph = await builder.build({ y: builder.identity(builder.input('x', f32([2]))) });
  const data = new Float32Array([1, 2]);
  const x = await context.createTensor({ dataType: 'float32', shape: [2], writable: true });
  const y = await context.createTensor({ dataType: 'float32', shape: [2], readable: true });
  context.writeTensor(x, data);
  data[0] = 100;
  context.dispatch(graph, { x }, { y });
  assert.deepStrictEqual([...new Float32Array(await context.readTensor(y))], [1, 2]);
});

test('destroyed tensors, graphs and contexts', async () => {
  const context = await ml.createContext();
  const builder = new MLGraphBuilder(context);
  const graph = await builder.build({ y: builder.relu(builder.input('x', f32([2]))) });
  const x = await context.createTensor({ dataType: 'float32', shape: [2], writable: true });
  const y = await context.createTensor({ dataType: 'float32', shape: [2], readable: true });
  x.destroy();
  await expectError('TypeError', () => context.writeTensor(x, new Float32Array(2)), /destroyed/);
  await expectError('TypeError', () => context.dispatch(graph, { x }, { y }), /destroyed/);
  graph.destroy();
  const x2 = await context.createTensor({ dataType: 'float32', shape: [2], writable: true });
  await expectError('InvalidStateError', () => context.dispatch(graph, { x: x2 }, { y }));
  const lost = context.lost;
  context.destroy();
  assert.deepStrictEqual(await lost, { message: 'destroy() was called' });
  await expectError('InvalidStateError', () => context.createTensor({ dataType: 'float32', shape: [1] }));
  await expectError('InvalidStateError', () => new MLGraphBuilder(context));
});

test('proposal: a hollow constant leaves the graph pending; dispatch names what is missing', async () => {
  const context = await ml.createContext();
  const { graph, w } = await hollowMatmul(context);
  const pending = graph.pendingConstants();
  assert.strictEqual(pending.length, 1);
  assert.strictEqual(pending[0], w);
  assert.strictEqual(w.label, 'fc.weight');
  const x = await context.createTensor({ dataType: 'float32', shape: [1, 2], writable: true });
  const y = await context.createTensor({ dataType: 'float32', shape: [1, 2], readable: true });
  await expectError('InvalidStateError', () => context.dispatch(graph, { x }, { y }), /fc\.weight/);
});

test('proposal: setConstantData checks type and length, changes nothing on error, copies once', async () => {
  const context = await ml.createContext();
  const { graph, w } = await hollowMatmul(context);
  await expectError('TypeError', () => graph.setConstantData(w, new Float32Array(3)), /holds 12 bytes/);
  await expectError('TypeError', () => graph.setConstantData(w, new Int32Array(4)), /Int32Array/);
  await expectError('TypeError', () => graph.setConstantData(w, [1, 2, 3, 4]), /ArrayBuffer/);
  assert.strictEqual(graph.pendingConstants().length, 1);
  const data = new Float32Array([1, 2, 3, 4]);
  graph.setConstantData(w, data);
  data.fill(0);  // no reference kept
  assert.deepStrictEqual(graph.pendingConstants(), []);
  const { y } = await run(context, graph, { x: { shape: [1, 2], values: new Float32Array([1, 1]) } }, { y: f32([1, 2]) });
  assert.deepStrictEqual([...new Float32Array(y)], [4, 6]);
});

test('proposal: writeConstantData in chunks, any order, any view of the bytes', async () => {
  const context = await ml.createContext();
  const { graph, w } = await hollowMatmul(context);
  const bytes = new Uint8Array(new Float32Array([1, 2, 3, 4]).buffer);
  graph.writeConstantData(w, 8, bytes.subarray(8));
  assert.strictEqual(graph.pendingConstants().length, 1);
  await expectError('TypeError', () => graph.writeConstantData(w, 12, bytes.subarray(0, 8)));
  graph.writeConstantData(w, 0n, Buffer.from(bytes.subarray(0, 8)));
  assert.deepStrictEqual(graph.pendingConstants(), []);
  const { y } = await run(context, graph, { x: { shape: [1, 2], values: new Float32Array([1, 0]) } }, { y: f32([1, 2]) });
  assert.deepStrictEqual([...new Float32Array(y)], [1, 2]);
});

test('proposal: a hollow constant cannot be a graph output', async () => {
  const context = await ml.createContext();
  const builder = new MLGraphBuilder(context);
  const w = builder.constant(f32([2]), { label: 'w' });
  await expectError('TypeError', () => builder.build({ w }));
});

test('proposal: loadConstants streams by label, with names and onProgress, off the main thread', async () => {
  const context = await ml.createContext();
  const { graph, w } = await hollowMatmul(context);
  const file = writeSafetensors({ 'layer0.weight': { dtype: 'F32', shape: [2, 2], data: new Float32Array([0, 1, 1, 0]) } });
  const progress = [];
  const promise = graph.loadConstants(file, {
    names: { 'fc.weight': 'layer0.weight' },
    onProgress: (done, total) => progress.push([done, total]),
  });
  assert.ok(promise instanceof Promise);
  assert.strictEqual(graph.pendingConstants().length, 1);  // not loaded synchronously
  assert.strictEqual(await promise, undefined);
  assert.deepStrictEqual(graph.pendingConstants(), []);
  assert.ok(progress.length >= 1);
  assert.deepStrictEqual(progress[progress.length - 1], [16, 16]);
  const { y } = await run(context, graph, { x: { shape: [1, 2], values: new Float32Array([5, 7]) } }, { y: f32([1, 2]) });
  assert.deepStrictEqual([...new Float32Array(y)], [7, 5]);
  assert.strictEqual(w.label, 'fc.weight');
});

test('proposal: loadConstants errors: missing tensors (TypeError), missing file (OperationError)', async () => {
  const context = await ml.createContext();
  const { graph } = await hollowMatmul(context);
  const file = writeSafetensors({ other: { dtype: 'F32', shape: [1], data: new Float32Array([1]) } });
  await expectError('TypeError', () => graph.loadConstants(file), /fc\.weight/);
  assert.strictEqual(graph.pendingConstants().length, 1);
  await graph.loadConstants(file, { requireAll: false });
  assert.strictEqual(graph.pendingConstants().length, 1);
  await expectError('OperationError', () => graph.loadConstants('/nonexistent/weights.safetensors'));
  await expectError('TypeError', () => graph.loadConstants(file, { names: 42 }));
  // A function maps every label.
  const named = writeSafetensors({ 'model.fc.weight': { dtype: 'F32', shape: [2, 2], data: new Float32Array(4) } });
  await graph.loadConstants(named, { names: (label) => `model.${label}` });
  assert.deepStrictEqual(graph.pendingConstants(), []);
});

test('typed arrays per data type: BigInt64Array, Uint16Array float16 bits, packed int4', async () => {
  const context = await ml.createContext();
  const builder = new MLGraphBuilder(context);
  const i64 = builder.constant({ dataType: 'int64', shape: [2] }, new BigInt64Array([-3n, 2n ** 40n]));
  const half = builder.constant({ dataType: 'float16', shape: [2] }, new Uint16Array([0x3c00, 0xc000]));  // 1, -2
  const nibbles = builder.constant({ dataType: 'int4', shape: [3] }, new Uint8Array([0xf7, 0x01]));  // 7, -1, 1
  await expectError('TypeError', () => builder.constant({ dataType: 'int64', shape: [2] }, new Int32Array(4)), /BigInt64Array/);
  await expectError('TypeError', () => builder.constant({ dataType: 'int4', shape: [3] }, new Uint8Array(1)), /takes 2/);
  const graph = await builder.build({
    a: builder.identity(i64),
    b: builder.cast(half, 'float32'),
    c: builder.cast(nibbles, 'int32'),
  });
  const r = await run(context, graph, {}, {
    a: { dataType: 'int64', shape: [2] }, b: f32([2]), c: { dataType: 'int32', shape: [3] },
  });
  assert.deepStrictEqual([...new BigInt64Array(r.a)], [-3n, 2n ** 40n]);
  assert.deepStrictEqual([...new Float32Array(r.b)], [1, -2]);
  assert.deepStrictEqual([...new Int32Array(r.c)], [7, -1, 1]);
});

test('constant(type, value): a scalar from a Number or a BigInt', async () => {
  const context = await ml.createContext();
  const builder = new MLGraphBuilder(context);
  const x = builder.input('x', f32([2]));
  const y = builder.add(x, builder.constant('float32', 0.5));
  const n = builder.constant('int32', 7n);
  assert.deepStrictEqual([...n.shape], []);
  const graph = await builder.build({ y, n: builder.identity(n) });
  const r = await run(context, graph, { x: { shape: [2], values: new Float32Array([1, 2]) } },
    { y: f32([2]), n: { dataType: 'int32', shape: [] } });
  assert.deepStrictEqual([...new Float32Array(r.y)], [1.5, 2.5]);
  assert.deepStrictEqual([...new Int32Array(r.n)], [7]);
});

test('opSupportLimits() is the spec dictionary', async () => {
  const context = await ml.createContext();
  const limits = context.opSupportLimits();
  assert.strictEqual(limits.preferredInputLayout, 'nchw');
  assert.ok(limits.maxTensorByteLength > 0);
  assert.ok(limits.input.dataTypes.includes('float32'));
  assert.deepStrictEqual(Object.keys(limits.input.rankRange).sort(), ['max', 'min']);
  assert.ok(limits.conv2d.input.dataTypes.includes('float32'));
  assert.ok(limits.conv2d.filter && limits.conv2d.bias && limits.conv2d.output);
  assert.ok(limits.add.a && limits.add.b);
  limits.input.dataTypes.length = 0;  // a copy each call
  assert.ok(context.opSupportLimits().input.dataTypes.length > 0);
});

test("require('webnn-cpp/global') sets navigator.ml and the interfaces on globalThis", () => {
  const names = ['MLContext', 'MLGraphBuilder', 'MLOperand', 'MLGraph', 'MLTensor'];
  for (const name of names) assert.strictEqual(globalThis[name], undefined);
  require('../../bindings/node/global');
  assert.strictEqual(globalThis.navigator.ml, ml);
  for (const name of names) assert.strictEqual(globalThis[name], webnn[name]);
  // ONNX Runtime Web tests `options instanceof GPUDevice`: the interface exists, with no devices.
  assert.strictEqual(typeof globalThis.GPUDevice, 'function');
  assert.throws(() => new globalThis.GPUDevice(), TypeError);
});

test('extension: graph.implementations() names each step, its data type and why it falls back', async (t) => {
  const context = await ml.createContext({ backend: 'cpu' }).catch(() => null);
  if (!context) {
    t.skip('a build without the cpu backend');
    return;
  }
  const builder = new MLGraphBuilder(context);
  const x = builder.input('x', { dataType: 'float16', shape: [1, 2, 4, 4] });
  const graph = await builder.build({ y: builder.reduceSum(builder.cast(builder.relu(x), 'int32')) });
  const steps = graph.implementations();
  assert.ok(Array.isArray(steps) && steps.length >= 2);
  const relu = steps.find((step) => step.type === 'relu');
  assert.deepStrictEqual(Object.keys(relu).sort(), ['dataType', 'fallbackReason', 'implementation', 'label', 'type']);
  assert.strictEqual(relu.dataType, 'float16');
  assert.strictEqual(relu.fallbackReason, '');
  const sum = steps.find((step) => step.type === 'reduceSum');
  assert.strictEqual(sum.dataType, 'int32');
  assert.strictEqual(sum.implementation, 'reference fallback');
  assert.match(sum.fallbackReason, /no int32 implementation/);
  graph.destroy();
  assert.throws(() => graph.implementations(), { name: 'InvalidStateError' });
});
