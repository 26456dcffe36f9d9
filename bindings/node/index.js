// webnn-cpp: the W3C WebNN API for Node.js (https://www.w3.org/TR/webnn/), with the weightless
// proposal: constants declared by descriptor only, filled after build(), each byte copied once.
//   const { ml, MLGraphBuilder } = require('webnn-cpp');
//   require('webnn-cpp/global');  // navigator.ml and the interfaces on globalThis
'use strict';
const { ML, ml, availableBackends } = require('./lib/ml');
const { MLContext } = require('./lib/context');
const { MLGraphBuilder } = require('./lib/builder');
const { MLOperand } = require('./lib/operand');
const { MLGraph } = require('./lib/graph');
const { MLTensor } = require('./lib/tensor');

class GPUDevice {
  constructor() {
    throw new TypeError('Illegal constructor: webnn-cpp has no WebGPU');
  }
}

// Sets navigator.ml and the interfaces on globalThis, as a browser exposes them. Node 20 has no
// `navigator`; where Node has one, `ml` is added to it.
function install(target = globalThis) {
  const interfaces = { ML, MLContext, MLGraphBuilder, MLOperand, MLGraph, MLTensor };
  for (const [name, value] of Object.entries(interfaces)) {
    Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
  }
  // WebNN clients test `options instanceof GPUDevice` (ONNX Runtime Web does); without WebGPU
  // there is no device, so the interface is there with no instances (new GPUDevice() throws).
  if (target.GPUDevice === undefined) {
    Object.defineProperty(target, 'GPUDevice', { value: GPUDevice, writable: true, configurable: true });
  }
  if (target.navigator === undefined) {
    Object.defineProperty(target, 'navigator', { value: {}, writable: true, configurable: true });
  }
  Object.defineProperty(target.navigator, 'ml', { value: ml, writable: true, configurable: true, enumerable: true });
  return target;
}

module.exports = {
  ml, ML, MLContext, MLGraphBuilder, MLOperand, MLGraph, MLTensor, install, availableBackends,
};
