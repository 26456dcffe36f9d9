// TypeScript declarations of webnn-cpp: the W3C WebNN API (https://www.w3.org/TR/webnn/) with the
// weightless proposal (hollow constants, MLGraph.pendingConstants / setConstantData /
// writeConstantData / loadConstants; hollow constant tensors, MLContext.writeConstantTensor /
// loadConstants) and the extensions named below.

export type MLOperandDataType =
  | 'float32' | 'float16' | 'int32' | 'uint32' | 'int64' | 'uint64' | 'int8' | 'uint8' | 'int4' | 'uint4';
export type MLNumber = number | bigint;
export type MLPowerPreference = 'default' | 'high-performance' | 'low-power';

/** Bytes: an ArrayBuffer, SharedArrayBuffer or a view. Typed arrays must be a Uint8Array or the
 * data type's view: Float32Array, Uint16Array (float16 bits; Float16Array where it exists),
 * Int32Array, Uint32Array, BigInt64Array, BigUint64Array, Int8Array, Uint8Array (int4/uint4
 * packed two per byte, low nibble first). */
export type AllowSharedBufferSource = ArrayBuffer | SharedArrayBuffer | ArrayBufferView;

export interface MLContextOptions {
  powerPreference?: MLPowerPreference;
  accelerated?: boolean;
  /** Extension: the backend by name (see availableBackends()); the default backend when missing. */
  backend?: string;
  /** Extension: how many threads a backend that computes in parallel may use (0: all cores). */
  numThreads?: number;
  /** Extension: time every step of every dispatch (MLGraph.profile()). */
  profiling?: boolean;
  /** Extension: the most bytes of weights the backend keeps of its own (0: no limit). Beyond it
   * the largest float32 weights stay as the file stores them, and loadConstants with
   * {allowMapping: true} maps them: a model larger than memory runs, slower. */
  constantMemoryBudget?: number | bigint;
  /** Extension: products on 4-bit block-quantized weights multiply int8-quantized activations
   * (llama.cpp's q4_0 x q8_0, ONNX Runtime's accuracy_level 4): faster, about 1e-2 from the float
   * result. */
  blockQuantizedInt8Activations?: boolean;
}

export interface MLOperandDescriptor {
  dataType: MLOperandDataType;
  shape: readonly number[];
}

export interface MLTensorDescriptor extends MLOperandDescriptor {
  readable?: boolean;
  writable?: boolean;
}

export interface MLContextLostInfo { message: string }

export interface MLRankRange { min: number; max: number }
export interface MLTensorLimits { dataTypes: MLOperandDataType[]; rankRange: MLRankRange }
/** The spec's dictionary: context-wide limits, and per op the limits of each operand by its
 * parameter name ("input", "filter", "bias", "a", "b", "output", ...). */
export interface MLOpSupportLimits {
  preferredInputLayout: MLInputOperandLayout;
  maxTensorByteLength: number;
  input: MLTensorLimits;
  constant: MLTensorLimits;
  output: MLTensorLimits;
  [op: string]: MLInputOperandLayout | number | MLTensorLimits | Record<string, MLTensorLimits>;
}

/** Extension: where a context's memory goes (bytes). */
export interface MLMemoryStats {
  constantBytes: number; constantBytesPeak: number;
  activationBytes: number; activationBytesPeak: number;
  tensorBytes: number;
  stagingBytes: number; stagingBytesPeak: number;
  /** The part of constantBytes read from memory maps of weight files. */
  mappedConstantBytes: number;
}

export type MLNamedOperands = Record<string, MLOperand>;
export type MLNamedTensors = Record<string, MLTensor>;

export declare class ML {
  private constructor();
  createContext(options?: MLContextOptions): Promise<MLContext>;
}

export declare class MLContext {
  private constructor();
  readonly lost: Promise<MLContextLostInfo>;
  readonly accelerated: boolean;
  /** Extension: the backend's name. */
  readonly backend: string;
  createTensor(descriptor: MLTensorDescriptor): Promise<MLTensor>;
  writeTensor(tensor: MLTensor, data: AllowSharedBufferSource): void;
  readTensor(tensor: MLTensor): Promise<ArrayBuffer>;
  readTensor(tensor: MLTensor, outputData: AllowSharedBufferSource): Promise<undefined>;
  /** A constant tensor, `inputData` copied now: one copy that several graphs read
   * (MLGraphBuilder.constant(tensor)). */
  createConstantTensor(descriptor: MLOperandDescriptor, inputData: AllowSharedBufferSource): Promise<MLTensor>;
  /** Extension: a hollow constant tensor, descriptor and label only, filled once later by
   * writeConstantTensor or loadConstants (before or after the graphs that read it are built). */
  createConstantTensor(descriptor: MLOperandDescriptor, options?: MLConstantOptions): Promise<MLTensor>;
  /** Extension: a chunk of a hollow constant tensor's bytes at `byteOffset`, copied now; chunks in
   * any order. A complete tensor never changes (InvalidStateError). */
  writeConstantTensor(tensor: MLTensor, byteOffset: number | bigint, data: AllowSharedBufferSource): void;
  /** Extension: streams every one of `tensors` not yet complete by label from a safetensors, GGUF
   * or WebNN weights file, natively and off the main thread. */
  loadConstants(tensors: readonly MLTensor[], path: string, options?: LoadConstantsOptions): Promise<void>;
  /** Throws InvalidStateError while the graph has pending constants or reads a constant tensor not
   * filled yet (naming them). */
  dispatch(graph: MLGraph, inputs: MLNamedTensors, outputs: MLNamedTensors): void;
  opSupportLimits(): MLOpSupportLimits;
  /** Extension. */
  memoryStats(): MLMemoryStats;
  destroy(): void;
}

export declare class MLOperand {
  private constructor();
  readonly dataType: MLOperandDataType;
  readonly shape: readonly number[];
  /** Extension: the constant's label (the input's name); '' for other operands. */
  readonly label: string;
}

export declare class MLTensor {
  private constructor();
  readonly dataType: MLOperandDataType;
  readonly shape: readonly number[];
  readonly readable: boolean;
  readonly writable: boolean;
  readonly exportableToGPU: boolean;
  /** A constant tensor (MLContext.createConstantTensor): read by graphs, never bound to dispatch(). */
  readonly constant: boolean;
  /** Extension: whether a constant tensor has every byte (false for other tensors). */
  readonly constantComplete: boolean;
  /** Extension: a constant tensor's label ('' for other tensors). */
  readonly label: string;
  /** Extension. */
  readonly byteLength: number;
  destroy(): void;
}

export interface LoadConstantsOptions {
  /** Maps a constant's label to the tensor name in the file (identity when missing). */
  names?: Record<string, string> | Map<string, string> | ((label: string) => string);
  /** Called with (bytes done, bytes total) as the load goes, on the main thread. */
  onProgress?: (done: number, total: number) => void;
  /** When true (default), constants the file does not hold reject with a TypeError naming them
   * (after everything else is loaded); when false they stay pending. */
  requireAll?: boolean;
  /** Load every constant, complete or not (a new weight set); by default only pending ones. */
  reload?: boolean;
  /** Constants kept as the file stores them adopt a map of the file instead of a copy. */
  allowMapping?: boolean;
  /** Threads reading in parallel (0: one per core, at most 8). */
  threads?: number;
  /** Bytes per read in the chunked path. */
  chunkBytes?: number | bigint;
  /** Limits checked before a byte is read: the load rejects with a TypeError naming the constant
   * and the limit, and nothing changes. */
  maxTensorBytes?: number | bigint;
  maxTotalBytes?: number | bigint;
}

export declare class MLGraph {
  private constructor();
  /** Proposal: hollow constants still without (complete) data, in declaration order (the same
   * MLOperand objects constant() returned). */
  pendingConstants(): MLOperand[];
  /** Proposal: the whole constant; `data` is copied once into its final storage, not kept. */
  setConstantData(constant: MLOperand, data: AllowSharedBufferSource): void;
  /** Proposal: a chunk of the constant's bytes at `byteOffset`; chunks in any order. */
  writeConstantData(constant: MLOperand, byteOffset: number | bigint, data: AllowSharedBufferSource): void;
  /** Proposal: streams every pending constant by label from a safetensors, GGUF or WebNN weights
   * file, natively and off the main thread. */
  loadConstants(path: string, options?: LoadConstantsOptions): Promise<void>;
  /** Extension: how each executable step runs, known from build() on (empty on a backend that
   * does not report it). A non-empty `fallbackReason` is a step on the backend's reference kernel. */
  implementations(): MLStepImplementation[];
  /** Extension: what each executable step cost over the dispatches so far, in execution order
   * (empty unless the context was created with {profiling: true}). */
  profile(): MLOperationProfile[];
  destroy(): void;
}

export interface MLStepImplementation {
  type: string; label: string; dataType: MLOperandDataType; implementation: string; fallbackReason: string;
}

export interface MLOperationProfile {
  type: string; label: string; implementation: string; runs: number; totalMilliseconds: number;
}

export interface MLConstantOptions { label?: string }
// The enums and options dictionaries of the builder's operations, written from the op schema
// (include/webnn/op_schema.h) by `webnn schema --typescript --update bindings/node/index.d.ts`.
// BEGIN generated: types
export type MLConv2dFilterOperandLayout = 'oihw' | 'hwio' | 'ohwi' | 'ihwo';
export type MLConvTranspose2dFilterOperandLayout = 'iohw' | 'hwoi' | 'ohwi';
export type MLGruWeightLayout = 'zrn' | 'rzn';
export type MLInputOperandLayout = 'nchw' | 'nhwc';
export type MLInterpolationMode = 'nearest-neighbor' | 'linear';
export type MLLstmWeightLayout = 'iofg' | 'ifgo';
export type MLPaddingMode = 'constant' | 'edge' | 'reflection' | 'symmetric';
export type MLRecurrentNetworkActivation = 'relu' | 'sigmoid' | 'tanh';
export type MLRecurrentNetworkDirection = 'forward' | 'backward' | 'both';
export type MLRoundingType = 'floor' | 'ceil';
export interface MLOperatorOptions { label?: string }
export interface MLArgMinMaxOptions extends MLOperatorOptions { keepDimensions?: boolean; outputDataType?: MLOperandDataType }
export interface MLBatchNormalizationOptions extends MLOperatorOptions { scale?: MLOperand; bias?: MLOperand; axis?: number; epsilon?: number }
export interface MLClampOptions extends MLOperatorOptions { minValue?: MLNumber; maxValue?: MLNumber }
export interface MLConv2dOptions extends MLOperatorOptions { padding?: number[]; strides?: number[]; dilations?: number[]; groups?: number; inputLayout?: MLInputOperandLayout; filterLayout?: MLConv2dFilterOperandLayout; bias?: MLOperand }
export interface MLConvTranspose2dOptions extends MLOperatorOptions { padding?: number[]; strides?: number[]; dilations?: number[]; outputPadding?: number[]; outputSizes?: number[]; groups?: number; inputLayout?: MLInputOperandLayout; filterLayout?: MLConvTranspose2dFilterOperandLayout; bias?: MLOperand }
export interface MLCumulativeSumOptions extends MLOperatorOptions { exclusive?: boolean; reversed?: boolean }
export interface MLEluOptions extends MLOperatorOptions { alpha?: number }
export interface MLGatherOptions extends MLOperatorOptions { axis?: number }
export interface MLGemmOptions extends MLOperatorOptions { c?: MLOperand; alpha?: number; beta?: number; aTranspose?: boolean; bTranspose?: boolean }
export interface MLGruCellOptions extends MLOperatorOptions { bias?: MLOperand; recurrentBias?: MLOperand; resetAfter?: boolean; layout?: MLGruWeightLayout; activations?: MLRecurrentNetworkActivation[] }
export interface MLGruOptions extends MLOperatorOptions { bias?: MLOperand; recurrentBias?: MLOperand; initialHiddenState?: MLOperand; resetAfter?: boolean; returnSequence?: boolean; direction?: MLRecurrentNetworkDirection; layout?: MLGruWeightLayout; activations?: MLRecurrentNetworkActivation[] }
export interface MLHardSigmoidOptions extends MLOperatorOptions { alpha?: number; beta?: number }
export interface MLInstanceNormalizationOptions extends MLOperatorOptions { scale?: MLOperand; bias?: MLOperand; epsilon?: number; layout?: MLInputOperandLayout }
export interface MLLayerNormalizationOptions extends MLOperatorOptions { scale?: MLOperand; bias?: MLOperand; axes?: number[]; epsilon?: number }
export interface MLLeakyReluOptions extends MLOperatorOptions { alpha?: number }
export interface MLLinearOptions extends MLOperatorOptions { alpha?: number; beta?: number }
export interface MLLstmCellOptions extends MLOperatorOptions { bias?: MLOperand; recurrentBias?: MLOperand; peepholeWeight?: MLOperand; layout?: MLLstmWeightLayout; activations?: MLRecurrentNetworkActivation[] }
export interface MLLstmOptions extends MLOperatorOptions { bias?: MLOperand; recurrentBias?: MLOperand; peepholeWeight?: MLOperand; initialHiddenState?: MLOperand; initialCellState?: MLOperand; returnSequence?: boolean; direction?: MLRecurrentNetworkDirection; layout?: MLLstmWeightLayout; activations?: MLRecurrentNetworkActivation[] }
export interface MLPadOptions extends MLOperatorOptions { mode?: MLPaddingMode; value?: MLNumber }
export interface MLPool2dOptions extends MLOperatorOptions { windowDimensions?: number[]; padding?: number[]; strides?: number[]; dilations?: number[]; layout?: MLInputOperandLayout; roundingType?: MLRoundingType; outputSizes?: number[] }
export interface MLReduceOptions extends MLOperatorOptions { axes?: number[]; keepDimensions?: boolean }
export interface MLResample2dOptions extends MLOperatorOptions { mode?: MLInterpolationMode; scales?: number[]; sizes?: number[]; axes?: number[] }
export interface MLReverseOptions extends MLOperatorOptions { axes?: number[] }
export interface MLScatterOptions extends MLOperatorOptions { axis?: number }
export interface MLSliceOptions extends MLOperatorOptions { strides?: number[] }
export interface MLSplitOptions extends MLOperatorOptions { axis?: number }
export interface MLTransposeOptions extends MLOperatorOptions { permutation?: number[] }
export interface MLTriangularOptions extends MLOperatorOptions { upper?: boolean; diagonal?: number }
// END generated: types

export declare class MLGraphBuilder {
  constructor(context: MLContext);
  input(name: string, descriptor: MLOperandDescriptor): MLOperand;
  /** The spec's constant: `buffer` is copied now. */
  constant(descriptor: MLOperandDescriptor, buffer: AllowSharedBufferSource): MLOperand;
  /** Proposal: a hollow constant, descriptor and label only, filled after build(). */
  constant(descriptor: MLOperandDescriptor, options?: MLConstantOptions): MLOperand;
  constant(type: MLOperandDataType, value: MLNumber): MLOperand;
  /** A constant that reads a constant tensor of the builder's context, filled or not (the same
   * tensor twice gives the same MLOperand). */
  constant(tensor: MLTensor): MLOperand;
  build(outputs: MLNamedOperands): Promise<MLGraph>;

  // The operations, written from the op schema (webnn schema --typescript --update FILE).
  // BEGIN generated: MLGraphBuilder operations
  abs(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  add(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  argMax(input: MLOperand, axis: number, options?: MLArgMinMaxOptions): MLOperand;
  argMin(input: MLOperand, axis: number, options?: MLArgMinMaxOptions): MLOperand;
  averagePool2d(input: MLOperand, options?: MLPool2dOptions): MLOperand;
  batchNormalization(input: MLOperand, mean: MLOperand, variance: MLOperand, options?: MLBatchNormalizationOptions): MLOperand;
  cast(input: MLOperand, type: MLOperandDataType, options?: MLOperatorOptions): MLOperand;
  ceil(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  clamp(input: MLOperand, options?: MLClampOptions): MLOperand;
  concat(inputs: MLOperand[], axis: number, options?: MLOperatorOptions): MLOperand;
  conv2d(input: MLOperand, filter: MLOperand, options?: MLConv2dOptions): MLOperand;
  convTranspose2d(input: MLOperand, filter: MLOperand, options?: MLConvTranspose2dOptions): MLOperand;
  cos(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  cumulativeSum(input: MLOperand, axis: number, options?: MLCumulativeSumOptions): MLOperand;
  dequantizeLinear(input: MLOperand, scale: MLOperand, zeroPoint: MLOperand, options?: MLOperatorOptions): MLOperand;
  div(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  elu(input: MLOperand, options?: MLEluOptions): MLOperand;
  equal(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  erf(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  exp(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  expand(input: MLOperand, newShape: number[], options?: MLOperatorOptions): MLOperand;
  floor(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  gather(input: MLOperand, indices: MLOperand, options?: MLGatherOptions): MLOperand;
  gatherElements(input: MLOperand, indices: MLOperand, options?: MLGatherOptions): MLOperand;
  gatherND(input: MLOperand, indices: MLOperand, options?: MLOperatorOptions): MLOperand;
  gelu(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  gemm(a: MLOperand, b: MLOperand, options?: MLGemmOptions): MLOperand;
  greater(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  greaterOrEqual(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  gru(input: MLOperand, weight: MLOperand, recurrentWeight: MLOperand, steps: number, hiddenSize: number, options?: MLGruOptions): MLOperand[];
  gruCell(input: MLOperand, weight: MLOperand, recurrentWeight: MLOperand, hiddenState: MLOperand, hiddenSize: number, options?: MLGruCellOptions): MLOperand;
  hardSigmoid(input: MLOperand, options?: MLHardSigmoidOptions): MLOperand;
  hardSwish(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  identity(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  instanceNormalization(input: MLOperand, options?: MLInstanceNormalizationOptions): MLOperand;
  isInfinite(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  isNaN(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  l2Pool2d(input: MLOperand, options?: MLPool2dOptions): MLOperand;
  layerNormalization(input: MLOperand, options?: MLLayerNormalizationOptions): MLOperand;
  leakyRelu(input: MLOperand, options?: MLLeakyReluOptions): MLOperand;
  lesser(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  lesserOrEqual(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  linear(input: MLOperand, options?: MLLinearOptions): MLOperand;
  log(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  logicalAnd(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  logicalNot(a: MLOperand, options?: MLOperatorOptions): MLOperand;
  logicalOr(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  logicalXor(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  lstm(input: MLOperand, weight: MLOperand, recurrentWeight: MLOperand, steps: number, hiddenSize: number, options?: MLLstmOptions): MLOperand[];
  lstmCell(input: MLOperand, weight: MLOperand, recurrentWeight: MLOperand, hiddenState: MLOperand, cellState: MLOperand, hiddenSize: number, options?: MLLstmCellOptions): MLOperand[];
  matmul(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  max(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  maxPool2d(input: MLOperand, options?: MLPool2dOptions): MLOperand;
  min(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  mul(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  neg(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  notEqual(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  pad(input: MLOperand, beginningPadding: number[], endingPadding: number[], options?: MLPadOptions): MLOperand;
  pow(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  prelu(input: MLOperand, slope: MLOperand, options?: MLOperatorOptions): MLOperand;
  quantizeLinear(input: MLOperand, scale: MLOperand, zeroPoint: MLOperand, options?: MLOperatorOptions): MLOperand;
  reciprocal(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  reduceL1(input: MLOperand, options?: MLReduceOptions): MLOperand;
  reduceL2(input: MLOperand, options?: MLReduceOptions): MLOperand;
  reduceLogSum(input: MLOperand, options?: MLReduceOptions): MLOperand;
  reduceLogSumExp(input: MLOperand, options?: MLReduceOptions): MLOperand;
  reduceMax(input: MLOperand, options?: MLReduceOptions): MLOperand;
  reduceMean(input: MLOperand, options?: MLReduceOptions): MLOperand;
  reduceMin(input: MLOperand, options?: MLReduceOptions): MLOperand;
  reduceProduct(input: MLOperand, options?: MLReduceOptions): MLOperand;
  reduceSum(input: MLOperand, options?: MLReduceOptions): MLOperand;
  reduceSumSquare(input: MLOperand, options?: MLReduceOptions): MLOperand;
  relu(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  resample2d(input: MLOperand, options?: MLResample2dOptions): MLOperand;
  reshape(input: MLOperand, newShape: number[], options?: MLOperatorOptions): MLOperand;
  reverse(input: MLOperand, options?: MLReverseOptions): MLOperand;
  roundEven(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  scatterElements(input: MLOperand, indices: MLOperand, updates: MLOperand, options?: MLScatterOptions): MLOperand;
  scatterND(input: MLOperand, indices: MLOperand, updates: MLOperand, options?: MLOperatorOptions): MLOperand;
  sigmoid(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  sign(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  sin(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  slice(input: MLOperand, starts: number[], sizes: number[], options?: MLSliceOptions): MLOperand;
  softmax(input: MLOperand, axis: number, options?: MLOperatorOptions): MLOperand;
  softplus(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  softsign(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  split(input: MLOperand, splits: number | number[], options?: MLSplitOptions): MLOperand[];
  sqrt(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  sub(a: MLOperand, b: MLOperand, options?: MLOperatorOptions): MLOperand;
  tan(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  tanh(input: MLOperand, options?: MLOperatorOptions): MLOperand;
  tile(input: MLOperand, repetitions: number[], options?: MLOperatorOptions): MLOperand;
  transpose(input: MLOperand, options?: MLTransposeOptions): MLOperand;
  triangular(input: MLOperand, options?: MLTriangularOptions): MLOperand;
  where(condition: MLOperand, trueValue: MLOperand, falseValue: MLOperand, options?: MLOperatorOptions): MLOperand;
  // END generated: MLGraphBuilder operations
}

/** navigator.ml */
export declare const ml: ML;
/** Sets navigator.ml, ML, MLContext, MLGraphBuilder, MLOperand, MLGraph, MLTensor (and a GPUDevice
 * interface without devices, when there is none) on `target` (globalThis by default). */
export declare function install<T extends object>(target?: T): T;
/** Extension: the backends this build can create contexts on. */
export declare function availableBackends(): string[];
