// Replays one WPT conformance case through the WebNN JS API, as the upstream harness's
// buildAndExecuteGraph does (../shared/conformance/README.md §2): operands by name, arguments
// passed positionally, constants classic (constant(desc, data)) or hollow (constant(desc,
// {label}) filled after build() with writeConstantData).
'use strict';
const { encode, toNumber, toBigInt } = require('./tensor_data');
const { compareOutput } = require('./compare');

// Fills a hollow constant: whole when it has one element or one byte, otherwise in two chunks
// split on an element boundary, second half first (as the C++ runner does).
function fillConstant(graph, operand, tensor) {
  const array = encode(tensor);
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  const count = tensor.shape.reduce((n, d) => n * d, 1);
  const bits = array.BYTES_PER_ELEMENT * 8 === 8 && /^u?int4$/.test(tensor.dataType) ? 4 : array.BYTES_PER_ELEMENT * 8;
  let firstElements = Math.floor(count / 2);
  if (bits < 8) firstElements &= ~1;
  const split = (firstElements * bits) / 8;
  if (count <= 1 || split === 0 || split >= bytes.length) {
    graph.setConstantData(operand, array);
    return;
  }
  graph.writeConstantData(operand, split, bytes.subarray(split));
  graph.writeConstantData(operand, 0, bytes.subarray(0, split));
}

// A literal argument as upstream wrote it: decimal strings were BigInts, and the strings JSON
// uses for NaN, the infinities and -0 are numbers.
function literal(value) {
  if (typeof value !== 'string') return value;
  if (/^-?\d+$/.test(value)) return toBigInt(value);
  if (['NaN', 'Infinity', '-Infinity', '-0'].includes(value)) return toNumber(value);
  return value;
}

// Runs `testCase` on `context`; resolves to null when it passes, or to what failed.
async function replayCase(context, testCase, path, { MLGraphBuilder }) {
  let stage = 'graph builder';
  try {
    const builder = new MLGraphBuilder(context);
    const created = new Map();
    const intermediates = new Map();
    const graphInputs = new Map();
    const hollow = [];

    const operandNamed = (name) => {
      if (created.has(name)) return created.get(name);
      const input = testCase.inputs[name];
      if (input) {
        const descriptor = { dataType: input.dataType, shape: input.shape };
        let operand;
        if (!input.constant) {
          operand = builder.input(name, descriptor);
          graphInputs.set(name, input);
        } else if (path === 'classic') {
          operand = builder.constant(descriptor, encode(input));
        } else {
          operand = builder.constant(descriptor, { label: name });
          hollow.push([operand, input]);
        }
        created.set(name, operand);
        return operand;
      }
      return intermediates.get(name);
    };
    const resolve = (value) => {
      if (typeof value === 'string') return operandNamed(value) ?? literal(value);
      if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? operandNamed(item) ?? literal(item) : item));
      return value;
    };
    const resolveOptions = (options) => {
      const result = {};
      for (const [key, value] of Object.entries(options)) {
        result[key] = typeof value === 'string' ? operandNamed(value) ?? literal(value) : value;
      }
      return result;
    };

    for (const call of testCase.operators) {
      stage = call.name;
      // Each argument is a {parameterName: value} object (one vector holds two in one object).
      const args = call.arguments.flatMap((argument) => Object.entries(argument).map(
        ([key, value]) => (key === 'options' ? resolveOptions(value) : resolve(value))));
      // softmax without an axis (older vectors): the last axis, which their data match.
      if (call.name === 'softmax' && args.length === 1) args.push(Math.max(args[0].shape.length - 1, 0));
      const result = builder[call.name](...args);
      const names = Array.isArray(call.outputs) ? call.outputs : [call.outputs];
      const outputs = Array.isArray(result) ? result : [result];
      if (outputs.length !== names.length) {
        return `${call.name} returned ${outputs.length} operands, the vector names ${names.length}`;
      }
      names.forEach((name, i) => intermediates.set(name, outputs[i]));
    }

    const graphOutputs = {};
    for (const [name, expected] of Object.entries(testCase.expectedOutputs)) {
      const operand = intermediates.get(name);
      if (!operand) throw new Error(`runner: expected output "${name}" is no operator's output`);
      if (operand.dataType !== expected.dataType || operand.shape.join() !== expected.shape.join()) {
        return `output "${name}" is ${operand.dataType} [${operand.shape}], expected ${expected.dataType} [${expected.shape}]`;
      }
      graphOutputs[name] = operand;
    }
    stage = 'build';
    const graph = await builder.build(graphOutputs);

    if (path === 'hollow') {
      stage = 'pendingConstants';
      const pending = graph.pendingConstants();
      if (pending.length !== hollow.length) {
        return `after build ${pending.length} constants are pending, ${hollow.length} were declared hollow`;
      }
      stage = 'writeConstantData';
      for (const [operand, input] of hollow) fillConstant(graph, operand, input);
      if (graph.pendingConstants().length) return 'constants still pending after their data was written';
    }

    stage = 'createTensor';
    const inputs = {};
    for (const [name, input] of graphInputs) {
      inputs[name] = await context.createTensor({ dataType: input.dataType, shape: input.shape, writable: true });
      context.writeTensor(inputs[name], encode(input));
    }
    const outputs = {};
    for (const [name, expected] of Object.entries(testCase.expectedOutputs)) {
      outputs[name] = await context.createTensor({ dataType: expected.dataType, shape: expected.shape, readable: true });
    }
    stage = 'dispatch';
    context.dispatch(graph, inputs, outputs);
    stage = 'readTensor';
    const differences = [];
    for (const [name, expected] of Object.entries(testCase.expectedOutputs)) {
      const buffer = await context.readTensor(outputs[name]);
      const difference = compareOutput(expected, buffer, testCase.tolerance);
      if (difference) differences.push(`output "${name}" [${expected.shape}]: ${difference}`);
    }
    graph.destroy();
    for (const tensor of [...Object.values(inputs), ...Object.values(outputs)]) tensor.destroy();
    return differences.length ? differences.join('; ') : null;
  } catch (error) {
    if (error.message?.startsWith('runner:')) throw error;
    return `${error.name}: ${error.message} (at ${stage})`;
  }
}

module.exports = { replayCase };
