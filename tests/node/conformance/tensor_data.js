// Tensor data of the WPT conformance vectors (../shared/conformance/README.md §2, §4): decoding the
// JSON values, and encoding them into the typed array WebNN takes for each data type.
'use strict';

const special = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };

// A JSON value as a Number ("NaN", "Infinity", "-Infinity", "-0" and decimal strings included).
function toNumber(value) {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    if (value in special) return special[value];
    const number = Number(value);
    if (value.trim() !== '' && !Number.isNaN(number)) return number;
  }
  throw new Error(`not a number: ${JSON.stringify(value)}`);
}

// A JSON value as a BigInt modulo 2^64 (the harness's BigInt(); Numbers truncated).
function toBigInt(value) {
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  const number = toNumber(value);
  if (!Number.isFinite(number)) return 0n;
  return BigInt(Math.trunc(number));
}

// The harness's toHalf(): James Tursa's float32 -> float16 rounding, with the simple round-up of
// the extra bit (bit-exact with the upstream harness and the C++ runner).
const floatView = new Float32Array(1);
const int32View = new Int32Array(floatView.buffer);
function toHalf(value) {
  floatView[0] = value;
  const x = int32View[0];
  let bits = (x >> 16) & 0x8000;
  let m = (x >> 12) & 0x07ff;
  const e = (x >> 23) & 0xff;
  if (e < 103) return bits;
  if (e > 142) {
    bits |= 0x7c00;
    bits |= (e === 255 && (x & 0x007fffff)) ? 1 : 0;
    return bits;
  }
  if (e < 113) {
    m |= 0x0800;
    bits |= (m >> (114 - e)) + ((m >> (113 - e)) & 1);
    return bits;
  }
  bits |= ((e - 112) << 10) | (m >> 1);
  bits += m & 1;
  return bits & 0xffff;
}

function halfToNumber(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa ? NaN : sign * Infinity;
  return sign * (mantissa + 1024) * 2 ** (exponent - 25);
}

const arrayTypes = {
  float32: Float32Array, float16: Uint16Array, int32: Int32Array, uint32: Uint32Array,
  int64: BigInt64Array, uint64: BigUint64Array, int8: Int8Array, uint8: Uint8Array,
  int4: Uint8Array, uint4: Uint8Array,
};

function elementCount(shape) {
  return shape.reduce((n, d) => n * d, 1);
}

// The typed array holding `tensor` ({dataType, shape, data}); a single number fills the shape.
function encode(tensor) {
  const count = elementCount(tensor.shape);
  const valueAt = Array.isArray(tensor.data) ? (i) => tensor.data[i] : () => tensor.data;
  const { dataType } = tensor;
  if (dataType === 'int4' || dataType === 'uint4') {
    const bytes = new Uint8Array(Math.ceil(count / 2));
    for (let i = 0; i < count; i++) {
      const nibble = Number(BigInt.asUintN(4, toBigInt(valueAt(i))));
      bytes[i >> 1] |= i % 2 === 0 ? nibble : nibble << 4;
    }
    return bytes;
  }
  const array = new arrayTypes[dataType](count);
  for (let i = 0; i < count; i++) {
    const value = valueAt(i);
    if (dataType === 'float16') array[i] = toHalf(toNumber(value));
    else if (dataType === 'int64' || dataType === 'uint64') array[i] = toBigInt(value);
    else if (dataType === 'float32') array[i] = toNumber(value);
    else array[i] = Number(BigInt.asIntN(64, toBigInt(value)));
  }
  return array;
}

module.exports = { toNumber, toBigInt, toHalf, halfToNumber, arrayTypes, elementCount, encode };
