// ML: navigator.ml, the entry point.
'use strict';
const native = require('./native');
const { construct, illegalConstructor } = require('./internal');
const { wrapContext } = require('./context');

class ML {
  constructor(token) {
    illegalConstructor(token);
  }

  // options: MLContextOptions {powerPreference, accelerated}, and the extensions `backend` (a
  // name of availableBackends(); the default backend when missing), numThreads, profiling,
  // constantMemoryBudget and blockQuantizedInt8Activations (index.d.ts). A GPUDevice is not accepted:
  // webnn-cpp has no WebGPU interop.
  async createContext(options = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an MLContextOptions');
    if (typeof GPUDevice !== 'undefined' && options instanceof GPUDevice) {
      throw new DOMException('webnn-cpp has no WebGPU interop', 'NotSupportedError');
    }
    return wrapContext(new native.NativeContext(options));
  }

  get [Symbol.toStringTag]() { return 'ML'; }
}

const ml = new ML(construct);

module.exports = { ML, ml, availableBackends: native.availableBackends };
