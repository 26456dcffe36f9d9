// MLContext: the device timeline. Work that touches the backend (writes, reads, dispatches,
// builds, weight loads) runs in order on the context's timeline, each step off the main thread
// where it may take long; what the spec checks synchronously is checked before queuing.
'use strict';
const { slots, construct, illegalConstructor, invalidState, nameRecord, plainLoadOptions } = require('./internal');
const { validateBuffer, nativeView, byteLength, isBufferSource, normalizedDescriptor } = require('./buffers');
const { MLTensor, wrapTensor } = require('./tensor');

function sameDescriptor(tensor, descriptor) {
  return tensor.dataType === descriptor.dataType &&
         tensor.shape.length === descriptor.shape.length &&
         tensor.shape.every((d, i) => d === descriptor.shape[i]);
}

class MLContext {
  #native;
  #timeline = Promise.resolve();
  #lost;
  #resolveLost;
  #isLost = false;
  #limits;

  constructor(token, native) {
    illegalConstructor(token);
    this.#native = native;
    this.#lost = new Promise((resolve) => { this.#resolveLost = resolve; });
    Object.defineProperty(this, slots.native, { value: native });
    Object.defineProperty(this, slots.enqueue, { value: (step) => this.#enqueue(step) });
    Object.defineProperty(this, slots.destroyed, { get: () => this.#isLost });
  }

  get lost() { return this.#lost; }
  get accelerated() { return false; }

  // Runs `step` (which may return a promise) after every step queued before it.
  #enqueue(step) {
    const result = this.#timeline.then(() => {
      if (this.#isLost) throw invalidState('the MLContext is lost');
      return step();
    });
    this.#timeline = result.catch(() => {});
    return result;
  }

  #checkTensor(tensor, what) {
    if (!(tensor instanceof MLTensor)) throw new TypeError(`${what} is not an MLTensor`);
    if (tensor[slots.context] !== this) throw new TypeError(`${what} belongs to another MLContext`);
    if (tensor[slots.destroyed]) throw new TypeError(`${what} is destroyed`);
  }

  async createTensor(descriptor) {
    if (this.#isLost) throw invalidState('the MLContext is lost');
    return wrapTensor(this.#native.createTensor(descriptor), this);
  }

  writeTensor(tensor, data) {
    this.#checkTensor(tensor, 'tensor');
    if (!tensor.writable) throw new TypeError('the tensor is not writable');
    validateBuffer(data, tensor, 'data');
    // The spec copies the bytes now: later changes to `data` do not reach the tensor.
    const bytes = ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice()
      : new Uint8Array(data).slice();
    const native = tensor[slots.native];
    this.#enqueue(() => {
      this.#native.writeTensor(native, bytes);
      tensor[slots.error] = undefined;
    }).catch(() => {});
  }

  readTensor(tensor, outputData) {
    try {
      this.#checkTensor(tensor, 'tensor');
      if (!tensor.readable) throw new TypeError('the tensor is not readable');
      // Only the byte length is checked here, not the view type the spec's "validate buffer with
      // descriptor" asks for: ONNX Runtime Web 1.30 reads float32 tensors into an Int8Array view
      // of its wasm memory (as browsers accept).
      if (outputData !== undefined) validateBuffer(outputData, tensor, 'outputData', { anyView: true });
    } catch (error) {
      return Promise.reject(error);
    }
    const native = tensor[slots.native];
    return this.#enqueue(async () => {
      if (tensor[slots.error]) throw tensor[slots.error];
      if (outputData === undefined) {
        const buffer = new ArrayBuffer(byteLength(tensor.dataType, tensor.shape));
        await this.#native.readTensor(native, buffer);
        return buffer;
      }
      await this.#native.readTensor(native, nativeView(outputData));
      return undefined;
    });
  }

  // The spec's createConstantTensor(descriptor, inputData): a constant tensor, `inputData` copied
  // now; several graphs read its one copy (MLGraphBuilder.constant(tensor)). Extension:
  // createConstantTensor(descriptor, {label}) makes it hollow, filled once later by
  // writeConstantTensor or loadConstants, before or after the graphs that read it are built.
  async createConstantTensor(descriptor, inputData) {
    if (this.#isLost) throw invalidState('the MLContext is lost');
    if (descriptor === null || typeof descriptor !== 'object') {
      throw new TypeError('descriptor must be an MLOperandDescriptor');
    }
    if (isBufferSource(inputData)) {
      validateBuffer(inputData, normalizedDescriptor(descriptor), 'inputData');
      return wrapTensor(this.#native.createConstantTensor(descriptor, nativeView(inputData)), this);
    }
    if (inputData !== undefined && (inputData === null || typeof inputData !== 'object')) {
      throw new TypeError('createConstantTensor(): the second argument must be a buffer or an MLConstantOptions');
    }
    const label = inputData?.label === undefined ? undefined : String(inputData.label);
    return wrapTensor(this.#native.hollowConstantTensor(descriptor, label), this);
  }

  #checkConstantTensor(tensor, what) {
    this.#checkTensor(tensor, what);
    if (!tensor.constant) throw new TypeError(`${what} is not a constant tensor (createConstantTensor)`);
  }

  // Extension: a chunk of a hollow constant tensor's bytes at `byteOffset` (a Number or BigInt),
  // copied now; chunks in any order. A complete tensor never changes (InvalidStateError).
  writeConstantTensor(tensor, byteOffset, data) {
    if (this.#isLost) throw invalidState('the MLContext is lost');
    this.#checkConstantTensor(tensor, 'tensor');
    if (!isBufferSource(data)) throw new TypeError('data must be an ArrayBuffer or an ArrayBufferView');
    this.#native.writeConstantTensor(tensor[slots.native], byteOffset, nativeView(data));
  }

  // Extension: streams every one of `tensors` not yet complete from a weights file (safetensors,
  // GGUF, WebNN weights) by label, natively and off the main thread; options as
  // MLGraph.loadConstants: {names: record | Map | (label) => name, onProgress(bytesDone,
  // bytesTotal), requireAll = true, reload, allowMapping, threads, chunkBytes, maxTensorBytes,
  // maxTotalBytes}.
  loadConstants(tensors, path, options = {}) {
    try {
      if (this.#isLost) throw invalidState('the MLContext is lost');
      if (tensors === null || typeof tensors !== 'object' || typeof tensors[Symbol.iterator] !== 'function') {
        throw new TypeError('tensors must be a sequence of MLTensors');
      }
      const list = [...tensors];
      list.forEach((tensor, i) => this.#checkConstantTensor(tensor, `tensors[${i}]`));
      if (typeof path !== 'string') throw new TypeError('path must be a string');
      if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
      const { onProgress } = options;
      if (onProgress !== undefined && typeof onProgress !== 'function') {
        throw new TypeError('options.onProgress must be a function');
      }
      const names = nameRecord(options.names, () => list.filter((tensor) => !tensor.constantComplete));
      const plain = plainLoadOptions(options);
      const natives = list.map((tensor) => tensor[slots.native]);
      return this.#enqueue(
        () => this.#native.loadConstants(natives, path, names, plain, onProgress));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  dispatch(graph, inputs, outputs) {
    const { MLGraph } = require('./graph');
    if (!(graph instanceof MLGraph)) throw new TypeError('graph is not an MLGraph');
    if (graph[slots.context] !== this) throw new TypeError('graph belongs to another MLContext');
    if (graph[slots.destroyed]) throw invalidState('the MLGraph is destroyed');
    if (this.#isLost) throw invalidState('the MLContext is lost');
    const descriptors = graph[slots.native].descriptors();
    const all = [];
    const toNative = (record, expected, what) => {
      if (record === null || typeof record !== 'object') throw new TypeError(`${what} must be a record`);
      const names = Object.keys(record);
      const wanted = Object.keys(expected);
      if (names.length !== wanted.length) {
        throw new TypeError(`${what} names ${names.length} tensors; the graph has ${wanted.length} (${wanted.join(', ')})`);
      }
      const result = {};
      for (const name of names) {
        const tensor = record[name];
        this.#checkTensor(tensor, `${what}['${name}']`);
        if (tensor.constant) {
          throw new TypeError(`${what}['${name}'] is a constant tensor, which only graphs read ` +
                              '(MLGraphBuilder.constant(tensor))');
        }
        if (!expected[name]) throw new TypeError(`the graph has no ${what.slice(0, -1)} named '${name}'`);
        if (!sameDescriptor(tensor, expected[name])) {
          throw new TypeError(`${what}['${name}'] is ${tensor.dataType} [${tensor.shape}]; the graph ` +
                              `expects ${expected[name].dataType} [${expected[name].shape}]`);
        }
        all.push(tensor);
        result[name] = tensor[slots.native];
      }
      return result;
    };
    const nativeInputs = toNative(inputs, descriptors.inputs, 'inputs');
    const nativeOutputs = toNative(outputs, descriptors.outputs, 'outputs');
    if (new Set(all).size !== all.length) throw new TypeError('a tensor is bound more than once');
    const pending = graph.pendingConstants();
    if (pending.length) {
      throw invalidState(`the graph has ${pending.length} constants without data: ` +
                         pending.map((c) => c.label || '(unlabelled)').join(', '));
    }
    const unfilled = graph[slots.constantTensors].filter((tensor) => !tensor.constantComplete);
    if (unfilled.length) {
      throw invalidState(`the graph reads ${unfilled.length} constant tensor(s) not filled yet: ` +
                         unfilled.map((tensor) => `'${tensor.label}'`).join(', '));
    }
    const outputTensors = Object.values(outputs);
    this.#enqueue(() => this.#native.dispatch(graph[slots.native], nativeInputs, nativeOutputs))
      .then(() => { for (const t of outputTensors) t[slots.error] = undefined; },
            (error) => { for (const t of outputTensors) t[slots.error] = error; });
  }

  opSupportLimits() {
    if (!this.#limits) this.#limits = this.#native.opSupportLimits();
    return structuredClone(this.#limits);
  }

  // Extensions: where the context's memory goes, and the backend's name.
  memoryStats() { return this.#native.memoryStats(); }
  get backend() { return this.#native.backendName(); }

  destroy() {
    if (this.#isLost) return;
    const native = this.#native;
    // Work queued before destroy() still settles (rejected with InvalidStateError).
    this.#timeline.then(() => native.destroy());
    this.#isLost = true;
    this.#resolveLost({ message: 'destroy() was called' });
  }

  get [Symbol.toStringTag]() { return 'MLContext'; }
}

function wrapContext(native) {
  return new MLContext(construct, native);
}

module.exports = { MLContext, wrapContext };
