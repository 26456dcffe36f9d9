// require('webnn-cpp/global') / import 'webnn-cpp/global': the WebNN interfaces on globalThis.
import type * as webnn from './index';

declare global {
  interface Navigator {
    readonly ml: webnn.ML;
  }
  // eslint-disable-next-line no-var
  var navigator: Navigator;
  var ML: typeof webnn.ML;
  var MLContext: typeof webnn.MLContext;
  var MLGraphBuilder: typeof webnn.MLGraphBuilder;
  var MLOperand: typeof webnn.MLOperand;
  var MLGraph: typeof webnn.MLGraph;
  var MLTensor: typeof webnn.MLTensor;
}

declare const _default: typeof globalThis;
export = _default;
