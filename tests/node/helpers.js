// Shared by the Node.js binding's tests.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

// Writes a safetensors file of {name: {dtype: 'F32', shape, data: TypedArray}}; returns its path.
function writeSafetensors(tensors, file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'webnn-')), 'w.safetensors')) {
  const header = {};
  let offset = 0;
  for (const [name, t] of Object.entries(tensors)) {
    header[name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + t.data.byteLength] };
    offset += t.data.byteLength;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const prefix = Buffer.alloc(8);
  prefix.writeBigUInt64LE(BigInt(json.length));
  const parts = [prefix, Buffer.from(json)];
  for (const t of Object.values(tensors)) parts.push(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  fs.writeFileSync(file, Buffer.concat(parts));
  return file;
}

// Asserts that `fn` throws (or the promise rejects with) an error named `name`; a DOMException
// unless the name is TypeError, which must be a real TypeError.
async function expectError(name, fn, pattern) {
  let error;
  try {
    await fn();
  } catch (e) {
    error = e;
  }
  if (!error) throw new Error(`expected ${name}, nothing was thrown`);
  if (name === 'TypeError') {
    if (!(error instanceof TypeError)) throw new Error(`expected a TypeError, got ${error?.name}: ${error?.message}`);
  } else if (!(error instanceof DOMException) || error.name !== name) {
    throw new Error(`expected a ${name} DOMException, got ${error?.constructor?.name} ${error?.name}: ${error?.message}`);
  }
  if (pattern && !pattern.test(error.message)) throw new Error(`message "${error.message}" does not match ${pattern}`);
  return error;
}

module.exports = { writeSafetensors, expectError };
