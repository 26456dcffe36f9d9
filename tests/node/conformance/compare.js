// Compares an output with its expected data under the case's tolerance, as the upstream harness
// (and the C++ runner, tools/conformance/compare.cpp) do: ULP or ATOL, float16 through toHalf(),
// integers as exact differences, scalar fills checked on their first 1000 elements.
'use strict';
const { toNumber, toBigInt, toHalf, halfToNumber, arrayTypes, elementCount } = require('./tensor_data');

const kMaximumIndexToValidate = 1000;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
// A float32 as a sign-magnitude integer (upstream getBitwise).
function float32Bits(value) {
  f32[0] = value;
  const magnitude = u32[0] & 0x7fffffff;
  return u32[0] >>> 31 ? -magnitude : magnitude;
}

function ulpDistanceFloat16(a, b) {
  if ((a & 0x7fff) === 0 && (b & 0x7fff) === 0) return 0;
  return Math.abs(a - b);
}

// The elements of the raw output bytes, as the expected data's type reads them.
function view(dataType, buffer) {
  if (dataType === 'int4' || dataType === 'uint4') {
    const bytes = new Uint8Array(buffer);
    return {
      length: bytes.length * 2,
      at(i) {
        const nibble = (bytes[i >> 1] >> ((i % 2) * 4)) & 0xf;
        return dataType === 'int4' && nibble & 0x8 ? nibble - 16 : nibble;
      },
    };
  }
  const array = new arrayTypes[dataType](buffer);
  return { length: array.length, at: (i) => array[i] };
}

function isIntegral(value) {
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return true;
  const number = toNumber(value);
  return Number.isFinite(number) && Math.trunc(number) === number;
}

function elementPasses(dataType, got, expectedValue, tolerance) {
  if (tolerance.kind === 'atol') {
    const actual = dataType === 'float16' ? halfToNumber(got) : Number(got);
    const expected = toNumber(expectedValue);
    if (actual === expected || (Number.isNaN(actual) && Number.isNaN(expected))) return true;
    return Math.abs(actual - expected) <= tolerance.value;
  }
  if (dataType === 'float32') {
    const expected = toNumber(expectedValue);
    if (got === expected || (Number.isNaN(got) && Number.isNaN(expected))) return true;
    return Math.abs(float32Bits(got) - float32Bits(expected)) <= tolerance.value;
  }
  if (dataType === 'float16') {
    const expected = toNumber(expectedValue);
    const actual = halfToNumber(got);
    if (actual === expected || (Number.isNaN(actual) && Number.isNaN(expected))) return true;
    return ulpDistanceFloat16(got, toHalf(expected)) <= tolerance.value;
  }
  if (!isIntegral(expectedValue)) {
    return Math.abs(Number(got) - toNumber(expectedValue)) <= tolerance.value;
  }
  let expected = toBigInt(expectedValue);
  if (dataType === 'uint64') expected = BigInt.asUintN(64, expected);
  else if (dataType === 'int64') expected = BigInt.asIntN(64, expected);
  const distance = BigInt(got) - expected;
  return (distance < 0n ? -distance : distance) <= BigInt(tolerance.value);
}

// null when `buffer` matches `expected` ({dataType, shape, data}); otherwise what differs.
function compareOutput(expected, buffer, tolerance) {
  const count = elementCount(expected.shape);
  const elements = view(expected.dataType, buffer);
  const fill = !Array.isArray(expected.data);
  const checked = fill && count > 1 ? Math.min(count, kMaximumIndexToValidate) : count;
  let mismatches = 0;
  let first = null;
  for (let i = 0; i < checked; i++) {
    const value = fill ? expected.data : expected.data[i];
    const got = elements.at(i);
    if (elementPasses(expected.dataType, got, value, tolerance)) continue;
    mismatches++;
    if (!first) first = `[${i}] got ${got}, expected ${value}`;
  }
  return mismatches ? `${mismatches} of ${checked} elements differ, first ${first} ` +
                      `(tolerance ${tolerance.value} ${tolerance.kind})` : null;
}

module.exports = { compareOutput };
