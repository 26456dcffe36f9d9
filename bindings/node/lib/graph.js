// MLGraph: a compiled graph, and the weightless proposal: constants declared by descriptor only
// are listed by pendingConstants() and filled after build(), each byte copied once from its
// source into the backend's final storage.
'use strict';
const { slots, construct, illegalConstructor, invalidState, nameRecord, plainLoadOptions } = require('./internal');
const { validateBuffer, isBufferSource, nativeView } = require('./buffers');
const { MLOperand } = require('./operand');

class MLGraph {
  #native;
  #context;
  #constants;  // native operand key -> the MLOperand the builder returned

  constructor(token, native, context, constants, constantTensors) {
    illegalConstructor(token);
    this.#native = native;
    this.#context = context;
    this.#constants = constants;
    Object.defineProperty(this, slots.native, { value: native });
    Object.defineProperty(this, slots.context, { value: context });
    // The constant tensors the graph reads (MLGraphBuilder.constant(tensor)), for dispatch().
    Object.defineProperty(this, slots.constantTensors, { value: Object.freeze(constantTensors) });
    this[slots.destroyed] = false;
  }

  #checkUsable() {
    if (this[slots.destroyed]) throw invalidState('the MLGraph is destroyed');
    if (this.#context[slots.destroyed]) throw invalidState('the MLContext is lost');
  }

  #operands(natives) {
    return natives.map((native) => this.#constants.get(native.key()) ?? null).filter(Boolean);
  }

  #checkConstant(operand) {
    if (!(operand instanceof MLOperand)) throw new TypeError('operand is not an MLOperand');
    return operand[slots.native];
  }

  // Hollow constants still without (complete) data, in declaration order.
  pendingConstants() {
    this.#checkUsable();
    return this.#operands(this.#native.pendingConstants());
  }

  // Extension: how each executable step runs, known from build() on: [{type, label, dataType,
  // implementation, fallbackReason}] ('' fallbackReason: the backend's own implementation). Empty
  // on a backend that does not report them.
  implementations() {
    this.#checkUsable();
    return this.#native.implementations();
  }

  // Extension: what each executable step cost over the dispatches so far: [{type, label,
  // implementation, runs, totalMilliseconds}], in execution order. Empty unless the context was
  // created with {profiling: true}.
  profile() {
    this.#checkUsable();
    return this.#native.profile();
  }

  // Whole tensor: copies `data` (a buffer source of the constant's byte length, a typed array of
  // its data type or a Uint8Array) into the constant's storage; keeps no reference to it.
  setConstantData(operand, data) {
    this.#checkUsable();
    const native = this.#checkConstant(operand);
    validateBuffer(data, operand, 'data');
    this.#native.setConstantData(native, nativeView(data));
  }

  // A chunk of `data`'s bytes at `byteOffset` (a Number or BigInt); chunks may come in any order.
  writeConstantData(operand, byteOffset, data) {
    this.#checkUsable();
    const native = this.#checkConstant(operand);
    if (!isBufferSource(data)) throw new TypeError('data must be an ArrayBuffer or an ArrayBufferView');
    this.#native.writeConstantData(native, byteOffset, nativeView(data));
  }

  // Streams every pending constant from a weights file (safetensors, GGUF, WebNN weights) by
  // label, natively and off the main thread. options: {names: record | Map | (label) => name,
  // onProgress(bytesDone, bytesTotal), requireAll = true, reload (every constant, complete or
  // not: a new weight set), allowMapping (constants kept as the file stores them adopt a map of
  // it), threads, chunkBytes, maxTensorBytes, maxTotalBytes (limits checked before a byte is
  // read)}.
  loadConstants(path, options = {}) {
    try {
      this.#checkUsable();
      if (typeof path !== 'string') throw new TypeError('path must be a string');
      if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
      const { onProgress } = options;
      if (onProgress !== undefined && typeof onProgress !== 'function') {
        throw new TypeError('options.onProgress must be a function');
      }
      const names = nameRecord(options.names, () => this.pendingConstants());
      const plain = plainLoadOptions(options);
      const native = this.#native;
      return this.#context[slots.enqueue](
        () => native.loadConstants(path, names, plain, onProgress));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  destroy() {
    if (this[slots.destroyed]) return;
    this[slots.destroyed] = true;
    const native = this.#native;
    this.#context[slots.enqueue](() => native.destroy()).catch(() => {});
  }

  get [Symbol.toStringTag]() { return 'MLGraph'; }
}

function wrapGraph(native, context, constants, constantTensors = []) {
  return new MLGraph(construct, native, context, constants, constantTensors);
}

module.exports = { MLGraph, wrapGraph };
