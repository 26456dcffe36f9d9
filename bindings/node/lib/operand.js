// MLOperand: an operand of one MLGraphBuilder's graph.
'use strict';
const { slots, construct, illegalConstructor } = require('./internal');

class MLOperand {
  #dataType;
  #shape;
  #label;

  constructor(token, native, builder) {
    illegalConstructor(token);
    const info = native.descriptor();
    this.#dataType = info.dataType;
    this.#shape = Object.freeze(info.shape);
    this.#label = info.label;
    Object.defineProperty(this, slots.native, { value: native });
    Object.defineProperty(this, slots.builder, { value: builder });
  }

  get dataType() { return this.#dataType; }
  get shape() { return this.#shape; }
  // The constant's label (or the input's name); '' for other operands.
  get label() { return this.#label; }

  get [Symbol.toStringTag]() { return 'MLOperand'; }
}

function wrapOperand(native, builder) {
  return new MLOperand(construct, native, builder);
}

module.exports = { MLOperand, wrapOperand };
