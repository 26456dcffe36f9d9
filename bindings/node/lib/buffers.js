// Buffer sources as the spec checks them ("validate buffer with descriptor"): the byte length
// must equal the descriptor's, and a typed array must be a Uint8Array or the view type of the
// data type (float16: Float16Array where it exists, or Uint16Array holding the bits).
'use strict';

const viewTypes = {
  float32: ['Float32Array'],
  float16: ['Float16Array', 'Uint16Array'],
  int32: ['Int32Array'],
  uint32: ['Uint32Array'],
  int64: ['BigInt64Array'],
  uint64: ['BigUint64Array'],
  int8: ['Int8Array'],
  uint8: ['Uint8Array'],
  int4: ['Uint8Array'],
  uint4: ['Uint8Array'],
};

const bitsPerElement = {
  float32: 32, float16: 16, int32: 32, uint32: 32, int64: 64, uint64: 64, int8: 8, uint8: 8,
  int4: 4, uint4: 4,
};

function isSharedArrayBuffer(value) {
  return typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer;
}

function isBufferSource(value) {
  return value instanceof ArrayBuffer || isSharedArrayBuffer(value) || ArrayBuffer.isView(value);
}

function elementCount(shape) {
  return shape.reduce((count, dimension) => count * dimension, 1);
}

// Bytes of a tensor of `dataType` and `shape` (int4/uint4 packed two per byte, rounded up).
function byteLength(dataType, shape) {
  return Math.ceil((elementCount(shape) * bitsPerElement[dataType]) / 8);
}

function viewTypeName(view) {
  return Object.prototype.toString.call(view).slice(8, -1);
}

// Throws a TypeError unless `buffer` may hold a tensor of `descriptor`.
function validateBuffer(buffer, descriptor, what, { anyView = false } = {}) {
  if (!isBufferSource(buffer)) {
    throw new TypeError(`${what} must be an ArrayBuffer or an ArrayBufferView`);
  }
  if (!viewTypes[descriptor.dataType]) {
    throw new TypeError(`'${descriptor.dataType}' is not an MLOperandDataType`);
  }
  const expected = byteLength(descriptor.dataType, descriptor.shape);
  if (buffer.byteLength !== expected) {
    throw new TypeError(`${what} holds ${buffer.byteLength} bytes; ${descriptor.dataType} ` +
                        `[${descriptor.shape}] takes ${expected}`);
  }
  if (ArrayBuffer.isView(buffer) && !anyView) {
    const type = viewTypeName(buffer);
    if (type !== 'Uint8Array' && !viewTypes[descriptor.dataType].includes(type)) {
      throw new TypeError(`${what} is a ${type}; ${descriptor.dataType} takes a ` +
                          `${viewTypes[descriptor.dataType].join(' or ')} (or a Uint8Array)`);
    }
  }
}

// {dataType, shape} as the spec reads an MLOperandDescriptor (shape defaults to a scalar's).
function normalizedDescriptor(descriptor) {
  const shape = descriptor.shape ?? descriptor.dimensions;
  return { dataType: descriptor.dataType, shape: shape === undefined ? [] : Array.from(shape) };
}

// What the addon reads bytes from: the buffer itself, or a Uint8Array over a SharedArrayBuffer
// (Node-API reads views of one, not the bare buffer).
function nativeView(buffer) {
  return isSharedArrayBuffer(buffer) ? new Uint8Array(buffer) : buffer;
}

module.exports = {
  viewTypes, bitsPerElement, byteLength, isBufferSource, validateBuffer, nativeView, normalizedDescriptor,
};
