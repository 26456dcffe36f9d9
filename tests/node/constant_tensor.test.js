// Constant tensors from JS: createConstantTensor (with data, or hollow with a label), builder.constant(tensor),
// writeConstantTensor, MLContext.loadConstants; several graphs over one tensor, and the error cases.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const webnn = require('../../bindings/node');
const { writeSafetensors, expectError } = require('./helpers');

const { ml, MLGraphBuilder, MLTensor } = webnn;
const f32 = (shape) => ({ dataType: 'float32', shape });

// y = x . w over the constant tensor `w` (2x2), for x of `rows` rows.
async function matmulOver(context, w, rows) {
  const builder = new MLGraphBuilder(context);
  const x = builder.input('x', f32([rows, 2]));
  return builder.build({ y: builder.matmul(x, builder.constant(w)) });
}

async function run(context, graph, x, rows) {
  const input = await context.createTensor({ ...f32([rows, 2]), writable: true });
  const output = await context.createTensor({ ...f32([rows, 2]), readable: true });
  context.writeTensor(input, new Float32Array(x));
  context.dispatch(graph, { x: input }, { y: output });
  return [...new Float32Array(await context.readTensor(output))];
}

const W = new Float32Array([1, 2, 3, 4]);  // [[1, 2], [3, 4]]
const X1 = [1, 1];
const Y1 = [4, 6];
const X3 = [1, 0, 0, 1, 2, -1];
const Y3 = [1, 2, 3, 4, -1, 0];

test('createConstantTensor(descriptor, data): two graphs of different input shapes read one tensor', async () => {
  const context = await ml.createContext();
  const data = W.slice();
  const promise = context.createConstantTensor(f32([2, 2]), data);
  assert.ok(promise instanceof Promise);
  const w = await promise;
  assert.ok(w instanceof MLTensor);
  assert.deepStrictEqual([w.constant, w.constantComplete, w.readable, w.writable, w.label, w.byteLength],
    [true, true, false, false, '', 16]);
  data[0] = 100;  // the bytes were copied at the call
  const small = await matmulOver(context, w, 1);
  const large = await matmulOver(context, w, 3);
  assert.deepStrictEqual(await run(context, small, X1, 1), Y1);
  assert.deepStrictEqual(await run(context, large, X3, 3), Y3);
  assert.deepStrictEqual(await run(context, small, X1, 1), Y1);
  // Tensors of createTensor are not constant.
  const plain = await context.createTensor({ ...f32([2]), readable: true });
  assert.deepStrictEqual([plain.constant, plain.constantComplete, plain.label], [false, false, '']);
});

test('a hollow constant tensor filled by chunks after the graphs are built', async () => {
  const context = await ml.createContext();
  const w = await context.createConstantTensor(f32([2, 2]), { label: 'fc.weight' });
  assert.deepStrictEqual([w.constant, w.constantComplete, w.label], [true, false, 'fc.weight']);
  const builder = new MLGraphBuilder(context);
  const x = builder.input('x', f32([1, 2]));
  assert.strictEqual(builder.constant(w), builder.constant(w));  // one operand per tensor
  assert.strictEqual(builder.constant(w).label, 'fc.weight');
  const small = await builder.build({ y: builder.matmul(x, builder.constant(w)) });
  const large = await matmulOver(context, w, 3);
  assert.deepStrictEqual(small.pendingConstants(), []);  // graph constants only, not tensors
  // The second half first, at a BigInt offset; then the first half.
  context.writeConstantTensor(w, 8n, W.subarray(2));
  assert.strictEqual(w.constantComplete, false);
  context.writeConstantTensor(w, 0, new Uint8Array(W.buffer, 0, 8));
  assert.strictEqual(w.constantComplete, true);
  assert.deepStrictEqual(await run(context, large, X3, 3), Y3);
  assert.deepStrictEqual(await run(context, small, X1, 1), Y1);
  // A graph built after the fill reads the same tensor.
  const later = await matmulOver(context, w, 3);
  assert.deepStrictEqual(await run(context, later, X3, 3), Y3);
});

test('dispatch before the fill throws InvalidStateError naming the tensor', async () => {
  const context = await ml.createContext();
  const w = await context.createConstantTensor(f32([2, 2]), { label: 'late.weight' });
  const graph = await matmulOver(context, w, 1);
  const input = await context.createTensor({ ...f32([1, 2]), writable: true });
  const output = await context.createTensor({ ...f32([1, 2]), readable: true });
  await expectError('InvalidStateError', () => context.dispatch(graph, { x: input }, { y: output }),
    /1 constant tensor\(s\) not filled yet: 'late\.weight'/);
  context.writeConstantTensor(w, 0, W);
  assert.deepStrictEqual(await run(context, graph, X1, 1), Y1);
  // A tensor the outputs do not reach does not hold the graph back.
  const unused = await context.createConstantTensor(f32([2, 2]), { label: 'unused' });
  const builder = new MLGraphBuilder(context);
  const x = builder.input('x', f32([1, 2]));
  builder.add(builder.constant(unused), builder.constant(unused));
  const reads = builder.constant(w);
  const other = await builder.build({ y: builder.matmul(x, reads) });
  assert.deepStrictEqual(await run(context, other, X1, 1), Y1);
});

test('a complete constant tensor refuses a write; bad writes change nothing', async () => {
  const context = await ml.createContext();
  const filled = await context.createConstantTensor(f32([2, 2]), W);
  await expectError('InvalidStateError', () => context.writeConstantTensor(filled, 0, W), /complete/);
  const w = await context.createConstantTensor(f32([2, 2]), { label: 'w' });
  await expectError('TypeError', () => context.writeConstantTensor(w, 12, new Float32Array(2)), /outside/);
  await expectError('TypeError', () => context.writeConstantTensor(w, -4, new Float32Array(1)), /non-negative/);
  await expectError('TypeError', () => context.writeConstantTensor(w, 0, [1, 2]), /ArrayBuffer/);
  assert.strictEqual(w.constantComplete, false);
  context.writeConstantTensor(w, 0, W);
  await expectError('InvalidStateError', () => context.writeConstantTensor(w, 4, new Float32Array(1)), /'w'.*complete/);
});

test('MLContext.loadConstants fills constant tensors from a safetensors file', async () => {
  const context = await ml.createContext();
  const file = writeSafetensors({
    'model.w1': { dtype: 'F32', shape: [2, 2], data: W },
    'model.b': { dtype: 'F32', shape: [2], data: new Float32Array([10, 20]) },
  });
  const w = await context.createConstantTensor(f32([2, 2]), { label: 'w1' });
  const b = await context.createConstantTensor(f32([2]), { label: 'b' });
  const builders = [1, 3].map((rows) => {
    const builder = new MLGraphBuilder(context);
    const x = builder.input('x', f32([rows, 2]));
    return builder.build({ y: builder.add(builder.matmul(x, builder.constant(w)), builder.constant(b)) });
  });
  const [small, large] = await Promise.all(builders);
  const progress = [];
  const promise = context.loadConstants([w, b], file, {
    names: (label) => `model.${label}`,
    onProgress: (done, total) => progress.push([done, total]),
  });
  assert.ok(promise instanceof Promise);
  assert.strictEqual(await promise, undefined);
  assert.deepStrictEqual([w.constantComplete, b.constantComplete], [true, true]);
  assert.deepStrictEqual(progress.at(-1), [24, 24]);
  assert.deepStrictEqual(await run(context, small, X1, 1), [14, 26]);
  assert.deepStrictEqual(await run(context, large, X3, 3), [11, 22, 13, 24, 9, 20]);
  // Complete tensors are skipped; a Map of names; tensors the file lacks.
  await context.loadConstants([w], file, { names: new Map([['w1', 'nothing']]) });
  const missing = await context.createConstantTensor(f32([2]), { label: 'absent' });
  await expectError('TypeError', () => context.loadConstants([missing], file), /absent/);
  await context.loadConstants([missing], file, { requireAll: false });
  assert.strictEqual(missing.constantComplete, false);
  await expectError('OperationError', () => context.loadConstants([missing], '/nonexistent/w.safetensors'));
  await expectError('TypeError', () => context.loadConstants(w, file), /sequence/);
  await expectError('TypeError', () => context.loadConstants([w], 42), /path/);
});

test('constant tensors: the error cases', async () => {
  const context = await ml.createContext();
  const w = await context.createConstantTensor(f32([2]), new Float32Array(2));
  await expectError('TypeError', () => context.createConstantTensor(f32([2]), new Float32Array(3)), /holds 12 bytes/);
  await expectError('TypeError', () => context.createConstantTensor(f32([2]), new Int32Array(2)), /Int32Array/);
  await expectError('TypeError', () => context.createConstantTensor(f32([2]), 7), /MLConstantOptions/);
  await expectError('TypeError', () => context.createConstantTensor({ dataType: 'float33', shape: [2] }, {}), /float33/);
  // Never bound to dispatch, never read or written as a plain tensor.
  const builder = new MLGraphBuilder(context);
  const graph = await builder.build({ y: builder.relu(builder.input('x', f32([2]))) });
  const y = await context.createTensor({ ...f32([2]), readable: true });
  await expectError('TypeError', () => context.dispatch(graph, { x: w }, { y }), /constant tensor/);
  await expectError('TypeError', () => context.readTensor(w), /not readable/);
  await expectError('TypeError', () => context.writeTensor(w, new Float32Array(2)), /not writable/);
  // builder.constant(tensor): a constant tensor of the builder's context, not destroyed.
  const other = new MLGraphBuilder(await ml.createContext());
  await expectError('TypeError', () => other.constant(w), /another MLContext/);
  await expectError('TypeError', () => new MLGraphBuilder(context).constant(y), /not a constant tensor/);
  await expectError('TypeError', () => context.writeConstantTensor(y, 0, new Float32Array(2)), /not a constant tensor/);
  await expectError('TypeError', () => context.loadConstants([y], '/tmp/w.safetensors'), /not a constant tensor/);
  const gone = await context.createConstantTensor(f32([2]), { label: 'gone' });
  gone.destroy();
  await expectError('TypeError', () => new MLGraphBuilder(context).constant(gone), /destroyed/);
  await expectError('TypeError', () => context.writeConstantTensor(gone, 0, new Float32Array(2)), /destroyed/);
  context.destroy();
  await expectError('InvalidStateError', () => context.createConstantTensor(f32([2]), new Float32Array(2)));
});
