// The extensions of MLContextOptions and of loadConstants' options from JS: numThreads and
// profiling (graph.profile()), int8 activations for 4-bit products, a memory budget with mapped
// weights, reloads, and the load's limits; values of the wrong type are TypeErrors.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const webnn = require('../../bindings/node');
const { writeSafetensors, expectError } = require('./helpers');

const { ml, MLGraphBuilder } = webnn;
const f32 = (shape) => ({ dataType: 'float32', shape });

async function cpuContext(t, options = {}) {
  const context = await ml.createContext({ backend: 'cpu', ...options }).catch(() => null);
  if (!context) t.skip('a build without the cpu backend');
  return context;
}

async function compute(context, graph, x, xShape, yShape) {
  const input = await context.createTensor({ ...f32(xShape), writable: true });
  const output = await context.createTensor({ ...f32(yShape), readable: true });
  context.writeTensor(input, x);
  context.dispatch(graph, { x: input }, { y: output });
  return new Float32Array(await context.readTensor(output));
}

// y = relu(x . w1) . w2, both hollow, dim x dim.
async function mlp(context, dim) {
  const builder = new MLGraphBuilder(context);
  const x = builder.input('x', f32([1, dim]));
  const w1 = builder.constant(f32([dim, dim]), { label: 'w1' });
  const w2 = builder.constant(f32([dim, dim]), { label: 'w2' });
  return builder.build({ y: builder.matmul(builder.relu(builder.matmul(x, w1)), w2) });
}

function weights(seed, dim) {
  const make = (salt) => Float32Array.from({ length: dim * dim }, (_, i) => Math.sin(i * 0.37 + seed + salt) / 8);
  return { w1: make(0), w2: make(1) };
}

function weightsFile(seed, dim) {
  const { w1, w2 } = weights(seed, dim);
  return writeSafetensors({
    w1: { dtype: 'F32', shape: [dim, dim], data: w1 },
    w2: { dtype: 'F32', shape: [dim, dim], data: w2 },
  });
}

function expected(x, { w1, w2 }, dim) {
  const product = (v, w) => Float32Array.from({ length: dim }, (_, j) => {
    let sum = 0;
    for (let k = 0; k < dim; ++k) sum += v[k] * w[k * dim + j];
    return sum;
  });
  return product(product(x, w1).map((v) => Math.max(v, 0)), w2);
}

function assertClose(actual, wanted) {
  assert.strictEqual(actual.length, wanted.length);
  for (let i = 0; i < wanted.length; ++i) {
    assert.ok(Math.abs(actual[i] - wanted[i]) <= 1e-4 * Math.max(1, Math.abs(wanted[i])), `${i}: ${actual[i]} vs ${wanted[i]}`);
  }
}

test('numThreads and profiling: graph.profile() times each step over the dispatches', async (t) => {
  for (const profiling of [false, true]) {
    const context = await cpuContext(t, { numThreads: 1, profiling });
    if (!context) return;
    const dim = 16;
    const graph = await mlp(context, dim);
    await graph.loadConstants(weightsFile(1, dim));
    const x = Float32Array.from({ length: dim }, (_, i) => i / dim);
    for (let i = 0; i < 2; ++i) assertClose(await compute(context, graph, x, [1, dim], [1, dim]), expected(x, weights(1, dim), dim));
    const steps = graph.profile();
    if (!profiling) {
      assert.deepStrictEqual(steps, []);
      continue;
    }
    assert.ok(steps.length >= 1);
    for (const step of steps) {
      assert.deepStrictEqual(Object.keys(step).sort(), ['implementation', 'label', 'runs', 'totalMilliseconds', 'type']);
      assert.strictEqual(step.runs, 2);
      assert.ok(step.totalMilliseconds >= 0);
    }
    assert.ok(steps.some((step) => step.type.includes('matmul')));
    graph.destroy();
    assert.throws(() => graph.profile(), { name: 'InvalidStateError' });
  }
});

// MatMulNBits as the ONNX importer writes it: int4 weights in blocks of 32 along K, a scale and a
// zero point per block, then matmul and a bias.
async function fourBitLayer(context, n, blocks, rows) {
  const k = blocks * 32;
  const b = new MLGraphBuilder(context);
  const w = b.constant({ dataType: 'int4', shape: [n, blocks, 32] }, Uint8Array.from({ length: n * k / 2 }, (_, i) => (i * 73) % 256));
  const s = b.constant(f32([n * blocks]), Float32Array.from({ length: n * blocks }, (_, i) => 0.01 * ((i % 7) + 1)));
  const z = b.constant({ dataType: 'int4', shape: [n * blocks] }, Uint8Array.from({ length: n * blocks / 2 }, (_, i) => (i * 29) % 256));
  const bias = b.constant(f32([n]), Float32Array.from({ length: n }, (_, i) => 0.5 * i - 3));
  const dequantized = b.dequantizeLinear(w, b.reshape(s, [n, blocks, 1]), b.reshape(z, [n, blocks, 1]));
  const x = b.input('x', f32([1, rows, k]));
  return b.build({ y: b.add(b.matmul(x, b.transpose(b.reshape(dequantized, [n, k]))), bias) });
}

test('blockQuantizedInt8Activations: 4-bit products on int8 activations, on request', async (t) => {
  const [n, blocks, rows] = [24, 3, 5];
  const x = Float32Array.from({ length: rows * blocks * 32 }, (_, i) => Math.sin(i));
  const reference = await ml.createContext({ backend: 'reference' });
  const wanted = await compute(reference, await fourBitLayer(reference, n, blocks, rows), x, [1, rows, blocks * 32], [1, rows, n]);
  for (const int8 of [false, true]) {
    const context = await cpuContext(t, { blockQuantizedInt8Activations: int8 });
    if (!context) return;
    const graph = await fourBitLayer(context, n, blocks, rows);
    const [step] = graph.implementations();
    assert.strictEqual(step.implementation.includes('int8 activations'), int8, step.implementation);
    const y = await compute(context, graph, x, [1, rows, blocks * 32], [1, rows, n]);
    let error = 0;
    let norm = 0;
    for (let i = 0; i < y.length; ++i) {
      error += (y[i] - wanted[i]) ** 2;
      norm += wanted[i] ** 2;
    }
    const relative = Math.sqrt(error / norm);
    if (int8) assert.ok(relative > 0 && relative < 2e-2, `rel L2 ${relative}`);
    else assert.ok(relative < 1e-5, `rel L2 ${relative}`);
  }
});

test('constantMemoryBudget with allowMapping: the weights beyond it stay the file\'s pages', async (t) => {
  const dim = 64;
  const file = weightsFile(2, dim);
  const x = Float32Array.from({ length: dim }, (_, i) => Math.cos(i));
  const mapped = {};
  for (const budget of [0, 16 * 1024, 16n * 1024n]) {  // one 16 KiB matrix fits, the other does not
    const context = await cpuContext(t, { constantMemoryBudget: budget });
    if (!context) return;
    const graph = await mlp(context, dim);
    await graph.loadConstants(file, { allowMapping: true });
    mapped[String(budget)] = context.memoryStats().mappedConstantBytes;
    assertClose(await compute(context, graph, x, [1, dim], [1, dim]), expected(x, weights(2, dim), dim));
  }
  assert.strictEqual(mapped['0'], 0);
  assert.ok(mapped['16384'] >= dim * dim * 4, JSON.stringify(mapped));
  assert.strictEqual(mapped['16384'], mapped[String(16n * 1024n)]);
});

test('loadConstants: reload fills a complete graph with another weight set', async (t) => {
  const dim = 16;
  const context = await cpuContext(t);
  if (!context) return;
  const graph = await mlp(context, dim);
  const x = new Float32Array(dim).fill(1);
  await graph.loadConstants(weightsFile(3, dim), { threads: 1, chunkBytes: 64 * 1024 });
  await graph.loadConstants(weightsFile(4, dim));  // nothing pending: nothing read
  assertClose(await compute(context, graph, x, [1, dim], [1, dim]), expected(x, weights(3, dim), dim));
  await graph.loadConstants(weightsFile(4, dim), { reload: true });
  assertClose(await compute(context, graph, x, [1, dim], [1, dim]), expected(x, weights(4, dim), dim));
});

test('loadConstants: limits are checked before a byte is read, on graphs and constant tensors', async (t) => {
  const dim = 16;
  const bytes = dim * dim * 4;
  const file = weightsFile(5, dim);
  const context = await cpuContext(t);
  if (!context) return;
  const graph = await mlp(context, dim);
  await expectError('TypeError', () => graph.loadConstants(file, { maxTensorBytes: bytes - 1 }), /w1/);
  await expectError('TypeError', () => graph.loadConstants(file, { maxTotalBytes: BigInt(2 * bytes - 1) }));
  assert.deepStrictEqual(graph.pendingConstants().map((c) => c.label), ['w1', 'w2']);
  await graph.loadConstants(file, { maxTensorBytes: bytes, maxTotalBytes: 2 * bytes });
  assert.deepStrictEqual(graph.pendingConstants(), []);
  const tensor = await context.createConstantTensor(f32([dim, dim]), { label: 'w2' });
  await expectError('TypeError', () => context.loadConstants([tensor], file, { maxTensorBytes: 100 }), /w2/);
  assert.strictEqual(tensor.constantComplete, false);
  await context.loadConstants([tensor], file, { allowMapping: true });
  assert.strictEqual(tensor.constantComplete, true);
});

test('the options reject values of the wrong type with a TypeError naming them', async () => {
  await expectError('TypeError', () => ml.createContext({ numThreads: -1 }), /numThreads/);
  await expectError('TypeError', () => ml.createContext({ constantMemoryBudget: 'lots' }), /constantMemoryBudget/);
  await expectError('TypeError', () => ml.createContext({ constantMemoryBudget: 1.5 }), /constantMemoryBudget/);
  const context = await ml.createContext();
  const graph = await mlp(context, 2);
  const file = weightsFile(6, 2);
  await expectError('TypeError', () => graph.loadConstants(file, { threads: -1 }), /threads/);
  await expectError('TypeError', () => graph.loadConstants(file, { maxTensorBytes: -1 }), /maxTensorBytes/);
});
