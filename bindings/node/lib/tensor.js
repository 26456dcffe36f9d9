// MLTensor: a buffer of an MLContext, bound to graph inputs and outputs by dispatch(); or a constant
// tensor, one copy of a constant that several graphs read (MLGraphBuilder.constant(tensor)).
'use strict';
const { slots, construct, illegalConstructor } = require('./internal');

class MLTensor {
  #info;

  constructor(token, native, context) {
    illegalConstructor(token);
    const info = native.info();
    info.shape = Object.freeze(info.shape);
    this.#info = info;
    Object.defineProperty(this, slots.native, { value: native });
    Object.defineProperty(this, slots.context, { value: context });
    this[slots.destroyed] = false;
  }

  get dataType() { return this.#info.dataType; }
  get shape() { return this.#info.shape; }
  get readable() { return this.#info.readable; }
  get writable() { return this.#info.writable; }
  get exportableToGPU() { return false; }
  // A constant tensor (MLContext.createConstantTensor): read by graphs, never bound to dispatch().
  get constant() { return this.#info.constant; }
  // Extensions: whether a constant tensor has every byte (false for other tensors), the label a
  // constant tensor was created with ('' for others), and the tensor's size in bytes.
  get constantComplete() { return this.#info.constant && this[slots.native].constantComplete(); }
  get label() { return this.#info.label; }
  get byteLength() { return this.#info.byteLength; }

  destroy() {
    if (this[slots.destroyed]) return;
    this[slots.destroyed] = true;
    // After the work already queued on the context's timeline that may use it.
    const native = this[slots.native];
    this[slots.context][slots.enqueue](() => native.destroy());
  }

  get [Symbol.toStringTag]() { return 'MLTensor'; }
}

function wrapTensor(native, context) {
  return new MLTensor(construct, native, context);
}

module.exports = { MLTensor, wrapTensor };
