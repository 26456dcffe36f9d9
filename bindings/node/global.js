// require('webnn-cpp/global'): navigator.ml, MLContext, MLGraphBuilder, MLOperand, MLGraph and
// MLTensor on globalThis, as a browser exposes them.
'use strict';
module.exports = require('./index').install(globalThis);
