// Internal slots shared by the classes of the package (symbols, so that they stay off the
// public surface), and the errors the spec names.
'use strict';

const slots = {
  native: Symbol('webnn.native'),
  context: Symbol('webnn.context'),
  builder: Symbol('webnn.builder'),
  destroyed: Symbol('webnn.destroyed'),
  enqueue: Symbol('webnn.enqueue'),
  error: Symbol('webnn.error'),
  call: Symbol('webnn.call'),
  constantTensors: Symbol('webnn.constantTensors'),
};

// A token only this package holds: the IDL interfaces have no public constructors (except
// MLGraphBuilder), as in a browser.
const construct = Symbol('webnn.construct');

function illegalConstructor(token) {
  if (token !== construct) throw new TypeError('Illegal constructor');
}

function domException(name, message) {
  return new DOMException(message, name);
}

const invalidState = (message) => domException('InvalidStateError', message);

// options.names of loadConstants as a plain record label -> tensor name (a function is asked for
// the label of every constant still to load, listed by `pending`, now, on the main thread).
function nameRecord(names, pending) {
  if (names === undefined) return undefined;
  if (typeof names === 'function') {
    const record = {};
    for (const constant of pending()) record[constant.label] = String(names(constant.label));
    return record;
  }
  if (names instanceof Map) return Object.fromEntries([...names].map(([k, v]) => [k, String(v)]));
  if (names !== null && typeof names === 'object') return names;
  throw new TypeError('options.names must be a record, a Map or a function');
}

// The plain members of loadConstants' options, passed to the native side as they are (it
// converts them, WebIDL-like, and throws TypeError naming a member of the wrong type).
function plainLoadOptions(options) {
  const { requireAll = true, reload, allowMapping, threads, chunkBytes, maxTensorBytes, maxTotalBytes } = options;
  return { requireAll, reload, allowMapping, threads, chunkBytes, maxTensorBytes, maxTotalBytes };
}

module.exports = { slots, construct, illegalConstructor, domException, invalidState, nameRecord, plainLoadOptions };
