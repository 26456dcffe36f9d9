// MLGraphBuilder: every builder method of the spec, validated natively at each call, and
// constant() with the proposal's hollow form: constant(descriptor, {label}) declares a constant by
// descriptor only, filled after build() through MLGraph.setConstantData / writeConstantData /
// loadConstants; and the spec's constant(tensor): a constant that reads a constant tensor
// (MLContext.createConstantTensor), one copy shared by every graph built on it.
'use strict';
const native = require('./native');
const { slots, invalidState } = require('./internal');
const { validateBuffer, isBufferSource, nativeView, normalizedDescriptor } = require('./buffers');
const { MLContext } = require('./context');
const { MLOperand, wrapOperand } = require('./operand');
const { MLTensor } = require('./tensor');
const { wrapGraph } = require('./graph');

class MLGraphBuilder {
  #native;
  #context;
  #hasBuilt = false;
  #constants = new Map();  // native operand key -> MLOperand, for MLGraph.pendingConstants()
  #tensorConstants = new Map();  // MLTensor -> the MLOperand that reads it
  // Once there are tensor constants: each operand an op made -> the operands it was made from
  // (which constant tensors a graph reads is what its outputs reach; dispatch() checks them).
  #madeFrom = new Map();

  constructor(context) {
    if (!(context instanceof MLContext)) throw new TypeError('context is not an MLContext');
    if (context[slots.destroyed]) throw invalidState('the MLContext is lost');
    this.#context = context;
    this.#native = new native.NativeBuilder(context[slots.native]);
  }

  #checkCanBuild() {
    if (this.#hasBuilt) throw invalidState('build() was already called on this MLGraphBuilder');
    if (this.#context[slots.destroyed]) throw invalidState('the MLContext is lost');
  }

  #wrap(result) {
    if (Array.isArray(result)) return result.map((n) => wrapOperand(n, this));
    return wrapOperand(result, this);
  }

  // An argument with every MLOperand in it (itself, in a sequence, or a dictionary member)
  // replaced by its native operand (each one pushed to `used` when given); operands of other
  // builders are a TypeError.
  #toNative(value, used) {
    if (value instanceof MLOperand) {
      if (value[slots.builder] !== this) throw new TypeError('the MLOperand belongs to another MLGraphBuilder');
      used?.push(value);
      return value[slots.native];
    }
    if (Array.isArray(value)) return value.map((item) => (item instanceof MLOperand ? this.#toNative(item, used) : item));
    if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value) &&
        Object.getPrototypeOf(value) === Object.prototype) {
      const copy = {};
      for (const key of Object.keys(value)) {
        const member = value[key];
        copy[key] = member instanceof MLOperand ? this.#toNative(member, used) : member;
      }
      return copy;
    }
    return value;
  }

  [slots.call](name, args) {
    this.#checkCanBuild();
    // Before the first constant(tensor), no operand can reach a constant tensor: nothing to note.
    const used = this.#tensorConstants.size ? [] : undefined;
    const result = this.#wrap(this.#native.op(name, args.map((arg) => this.#toNative(arg, used))));
    if (used?.length) {
      for (const operand of Array.isArray(result) ? result : [result]) this.#madeFrom.set(operand, used);
    }
    return result;
  }

  // The constant tensors that `outputs` reach.
  #tensorsRead(outputs) {
    if (!this.#tensorConstants.size) return [];
    const tensorOf = new Map([...this.#tensorConstants].map(([tensor, operand]) => [operand, tensor]));
    const seen = new Set();
    const stack = [...outputs];
    const read = [];
    while (stack.length) {
      const operand = stack.pop();
      if (seen.has(operand)) continue;
      seen.add(operand);
      const tensor = tensorOf.get(operand);
      if (tensor) read.push(tensor);
      const inputs = this.#madeFrom.get(operand);
      if (inputs) stack.push(...inputs);
    }
    return read;
  }

  input(name, descriptor) {
    this.#checkCanBuild();
    if (name === undefined) throw new TypeError('input() needs a name');
    return this.#wrap(this.#native.input(String(name), descriptor));
  }

  // constant(descriptor, buffer)           the spec's constant, copied now;
  // constant(descriptor, {label}?)         the proposal's hollow constant, no bytes;
  // constant(type, value)                  a scalar (value a Number or a BigInt);
  // constant(tensor)                       the spec's: reads a constant tensor of the context,
  //                                        filled or not (dispatch waits for it to be complete).
  constant(first, second) {
    this.#checkCanBuild();
    if (typeof first === 'string') return this.#wrap(this.#native.scalarConstant(first, second));
    if (first instanceof MLTensor) return this.#tensorConstant(first);
    if (first === null || typeof first !== 'object') throw new TypeError('descriptor must be an MLOperandDescriptor');
    if (isBufferSource(second)) {
      const operand = this.#wrap(this.#native.constant(first, validated(second, first)));
      return operand;
    }
    if (second !== undefined && (second === null || typeof second !== 'object')) {
      throw new TypeError('constant(): the second argument must be a buffer or an MLConstantOptions');
    }
    const label = second?.label === undefined ? undefined : String(second.label);
    const operand = this.#wrap(this.#native.hollowConstant(first, label));
    this.#constants.set(operand[slots.native].key(), operand);
    return operand;
  }

  #tensorConstant(tensor) {
    if (tensor[slots.context] !== this.#context) throw new TypeError('the MLTensor belongs to another MLContext');
    if (tensor[slots.destroyed]) throw new TypeError('the MLTensor is destroyed');
    if (!tensor.constant) {
      throw new TypeError('the MLTensor is not a constant tensor (MLContext.createConstantTensor)');
    }
    let operand = this.#tensorConstants.get(tensor);
    if (!operand) {
      operand = this.#wrap(this.#native.tensorConstant(tensor[slots.native]));
      this.#tensorConstants.set(tensor, operand);
    }
    return operand;
  }

  build(outputs) {
    try {
      this.#checkCanBuild();
      if (outputs === null || typeof outputs !== 'object') throw new TypeError('outputs must be a record of MLOperands');
      const names = Object.keys(outputs);
      if (names.length === 0) throw new TypeError('build() needs at least one output');
      const record = {};
      for (const name of names) {
        if (!(outputs[name] instanceof MLOperand)) throw new TypeError(`outputs['${name}'] is not an MLOperand`);
        record[name] = this.#toNative(outputs[name]);
      }
      this.#hasBuilt = true;
      const context = this.#context;
      const constants = this.#constants;
      const tensors = this.#tensorsRead(names.map((name) => outputs[name]));
      this.#madeFrom.clear();
      return context[slots.enqueue](() => this.#native.build(record))
        .then((graph) => wrapGraph(graph, context, constants, tensors));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  get [Symbol.toStringTag]() { return 'MLGraphBuilder'; }
}

function validated(buffer, descriptor) {
  validateBuffer(buffer, normalizedDescriptor(descriptor), 'buffer');
  return nativeView(buffer);
}

// Every builder method that takes operands, named as the spec names it.
for (const name of native.NativeBuilder.opNames()) {
  Object.defineProperty(MLGraphBuilder.prototype, name, {
    value: { [name](...args) { return this[slots.call](name, args); } }[name],
    writable: true, configurable: true, enumerable: false,
  });
}

module.exports = { MLGraphBuilder };
