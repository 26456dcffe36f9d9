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

module.exports = { slots, construct, illegalConstructor, domException, invalidState };
