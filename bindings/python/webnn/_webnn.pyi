# Type stubs of the native module (bindings/python/src): what IDEs and type checkers see of
# webnn._webnn. The MLGraphBuilder operations are written from the op schema by
# `webnn schema --update bindings/python/webnn/_webnn.pyi` (CTest schema.python_stubs checks them).
from os import PathLike
from typing import Any, Callable, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union

import numpy
import numpy.typing

# A data type: the spec's name ("float32", "int4", ...) or a numpy dtype or scalar type.
DataType = Union[str, numpy.dtype, type]
# {"dataType": DataType, "shape": [int, ...]}; a tensor's also "readable" and "writable".
Descriptor = Mapping[str, Any]
Buffer = Any  # any object with the buffer protocol: numpy array, bytes, bytearray, memoryview

HAVE_ONNX: bool
OP_NAMES: Dict[str, str]

class WebNNError(Exception): ...
class InvalidStateError(WebNNError): ...
class OperationError(WebNNError): ...
class UnknownError(WebNNError): ...
class NotSupportedError(WebNNError): ...
class DataError(WebNNError): ...

def create_context(
    *,
    backend: Optional[str] = None,
    power_preference: Literal["default", "high-performance", "low-power"] = "default",
    num_threads: int = 0,
    profiling: bool = False,
    constant_memory_budget: int = 0,
    block_quantized_int8_activations: bool = False,
) -> MLContext: ...
def available_backends() -> List[str]: ...

class MLOperand:
    @property
    def data_type(self) -> str: ...
    @property
    def dataType(self) -> str: ...
    @property
    def shape(self) -> List[int]: ...
    @property
    def label(self) -> str: ...
    @property
    def is_constant(self) -> bool: ...

class MLTensor:
    @property
    def data_type(self) -> str: ...
    @property
    def shape(self) -> List[int]: ...
    @property
    def readable(self) -> bool: ...
    @property
    def writable(self) -> bool: ...
    @property
    def byte_length(self) -> int: ...
    @property
    def constant(self) -> bool: ...
    @property
    def constant_complete(self) -> bool: ...
    @property
    def label(self) -> str: ...
    def destroy(self) -> None: ...

class MLContext:
    def create_tensor(self, descriptor: Descriptor) -> MLTensor: ...
    def write_tensor(self, tensor: MLTensor, data: Buffer) -> None: ...
    def read_tensor(self, tensor: MLTensor, out: Optional[Buffer] = None) -> Any: ...
    def create_constant_tensor(
        self,
        descriptor: Union[Descriptor, numpy.typing.NDArray[Any]],
        data: Optional[Buffer] = None,
        *,
        label: Optional[str] = None,
    ) -> MLTensor: ...
    def write_constant_tensor(self, tensor: MLTensor, byte_offset: int, data: Buffer) -> None: ...
    def load_constants(
        self,
        tensors: Sequence[MLTensor],
        source: Union[str, PathLike[str], WeightSource],
        *,
        names: Optional[Union[Mapping[str, str], Callable[[str], str]]] = None,
        on_progress: Optional[Callable[[int, int], Any]] = None,
        require_all: bool = True,
        threads: int = 0,
        reload: bool = False,
        allow_mapping: bool = False,
        max_tensor_bytes: Optional[int] = None,
        max_total_bytes: Optional[int] = None,
    ) -> None: ...
    def dispatch(
        self, graph: MLGraph, inputs: Mapping[str, MLTensor], outputs: Mapping[str, MLTensor]
    ) -> None: ...
    def op_support_limits(self) -> Dict[str, Any]: ...
    def memory_stats(self) -> Dict[str, int]: ...
    @property
    def backend_name(self) -> str: ...
    def destroy(self) -> None: ...

class WeightSource:
    @staticmethod
    def open(path: Union[str, PathLike[str]]) -> WeightSource: ...
    @property
    def format_name(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def total_bytes(self) -> int: ...
    @property
    def tensor_names(self) -> List[str]: ...

class MLGraph:
    def pending_constants(self) -> List[MLOperand]: ...
    def hollow_constants(self) -> List[MLOperand]: ...
    def set_constant_data(self, constant: MLOperand, data: Buffer) -> None: ...
    def write_constant_data(self, constant: MLOperand, byte_offset: int, data: Buffer) -> None: ...
    def load_constants(
        self,
        source: Union[str, PathLike[str], WeightSource],
        *,
        names: Optional[Union[Mapping[str, str], Callable[[str], str]]] = None,
        on_progress: Optional[Callable[[int, int], Any]] = None,
        require_all: bool = True,
        threads: int = 0,
        reload: bool = False,
        allow_mapping: bool = False,
        max_tensor_bytes: Optional[int] = None,
        max_total_bytes: Optional[int] = None,
    ) -> None: ...
    @property
    def input_descriptors(self) -> Dict[str, Dict[str, Any]]: ...
    @property
    def output_descriptors(self) -> Dict[str, Dict[str, Any]]: ...
    def implementations(self) -> List[Dict[str, str]]: ...
    def profile(self) -> List[Dict[str, Any]]: ...
    def compute(self, inputs: Mapping[str, numpy.typing.ArrayLike]) -> Dict[str, numpy.typing.NDArray[Any]]: ...
    @property
    def context(self) -> MLContext: ...
    def destroy(self) -> None: ...

class ImportedModel:
    inputs: List[Tuple[str, Dict[str, Any]]]
    outputs: List[Tuple[str, Dict[str, Any]]]
    output_operands: Dict[str, MLOperand]
    weights: WeightSource
    weight_bytes: int
    weight_count: int
    node_count: int
    folded_node_count: int
    opset_version: int
    producer: str

def onnx_load(
    path: Union[str, PathLike[str]],
    builder: MLGraphBuilder,
    *,
    input_shapes: Mapping[str, Sequence[int]] = ...,
    dimensions: Mapping[str, int] = ...,
) -> ImportedModel: ...
def onnx_summarize(path: Union[str, PathLike[str]]) -> Dict[str, Any]: ...

class MLGraphBuilder:
    def __init__(self, context: MLContext) -> None: ...
    def input(self, name: str, descriptor: Descriptor) -> MLOperand: ...
    def constant(
        self,
        descriptor: Union[Descriptor, numpy.typing.NDArray[Any], DataType, MLTensor],
        data: Optional[Union[Buffer, int, float]] = None,
        *,
        label: Optional[str] = None,
    ) -> MLOperand: ...
    def build(self, outputs: Mapping[str, MLOperand]) -> MLGraph: ...
    # BEGIN generated: MLGraphBuilder operations
    def abs(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def add(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def arg_max(
        self,
        input: MLOperand,
        axis: int,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        keep_dimensions: bool = ...,
        output_data_type: DataType = ...,
    ) -> MLOperand: ...
    def arg_min(
        self,
        input: MLOperand,
        axis: int,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        keep_dimensions: bool = ...,
        output_data_type: DataType = ...,
    ) -> MLOperand: ...
    def average_pool2d(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        window_dimensions: Sequence[int] = ...,
        padding: Sequence[int] = ...,
        strides: Sequence[int] = ...,
        dilations: Sequence[int] = ...,
        layout: Literal["nchw", "nhwc"] = ...,
        rounding_type: Literal["floor", "ceil"] = ...,
        output_sizes: Sequence[int] = ...,
    ) -> MLOperand: ...
    def batch_normalization(
        self,
        input: MLOperand,
        mean: MLOperand,
        variance: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        scale: MLOperand = ...,
        bias: MLOperand = ...,
        axis: int = ...,
        epsilon: float = ...,
    ) -> MLOperand: ...
    def cast(
        self,
        input: MLOperand,
        type: DataType,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def ceil(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def clamp(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        min_value: Union[int, float] = ...,
        max_value: Union[int, float] = ...,
    ) -> MLOperand: ...
    def concat(
        self,
        inputs: Sequence[MLOperand],
        axis: int,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def conv2d(
        self,
        input: MLOperand,
        filter: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        padding: Sequence[int] = ...,
        strides: Sequence[int] = ...,
        dilations: Sequence[int] = ...,
        groups: int = ...,
        input_layout: Literal["nchw", "nhwc"] = ...,
        filter_layout: Literal["oihw", "hwio", "ohwi", "ihwo"] = ...,
        bias: MLOperand = ...,
    ) -> MLOperand: ...
    def conv_transpose2d(
        self,
        input: MLOperand,
        filter: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        padding: Sequence[int] = ...,
        strides: Sequence[int] = ...,
        dilations: Sequence[int] = ...,
        output_padding: Sequence[int] = ...,
        output_sizes: Sequence[int] = ...,
        groups: int = ...,
        input_layout: Literal["nchw", "nhwc"] = ...,
        filter_layout: Literal["iohw", "hwoi", "ohwi"] = ...,
        bias: MLOperand = ...,
    ) -> MLOperand: ...
    def cos(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def cumulative_sum(
        self,
        input: MLOperand,
        axis: int,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        exclusive: bool = ...,
        reversed: bool = ...,
    ) -> MLOperand: ...
    def dequantize_linear(
        self,
        input: MLOperand,
        scale: MLOperand,
        zero_point: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def div(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def elu(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        alpha: float = ...,
    ) -> MLOperand: ...
    def equal(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def erf(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def exp(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def expand(
        self,
        input: MLOperand,
        new_shape: Sequence[int],
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def floor(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def gather(
        self,
        input: MLOperand,
        indices: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        axis: int = ...,
    ) -> MLOperand: ...
    def gather_elements(
        self,
        input: MLOperand,
        indices: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        axis: int = ...,
    ) -> MLOperand: ...
    def gather_nd(
        self,
        input: MLOperand,
        indices: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def gelu(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def gemm(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        c: MLOperand = ...,
        alpha: float = ...,
        beta: float = ...,
        a_transpose: bool = ...,
        b_transpose: bool = ...,
    ) -> MLOperand: ...
    def greater(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def greater_or_equal(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def gru(
        self,
        input: MLOperand,
        weight: MLOperand,
        recurrent_weight: MLOperand,
        steps: int,
        hidden_size: int,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        bias: MLOperand = ...,
        recurrent_bias: MLOperand = ...,
        initial_hidden_state: MLOperand = ...,
        reset_after: bool = ...,
        return_sequence: bool = ...,
        direction: Literal["forward", "backward", "both"] = ...,
        layout: Literal["zrn", "rzn"] = ...,
        activations: Sequence[Literal["relu", "sigmoid", "tanh"]] = ...,
    ) -> List[MLOperand]: ...
    def gru_cell(
        self,
        input: MLOperand,
        weight: MLOperand,
        recurrent_weight: MLOperand,
        hidden_state: MLOperand,
        hidden_size: int,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        bias: MLOperand = ...,
        recurrent_bias: MLOperand = ...,
        reset_after: bool = ...,
        layout: Literal["zrn", "rzn"] = ...,
        activations: Sequence[Literal["relu", "sigmoid", "tanh"]] = ...,
    ) -> MLOperand: ...
    def hard_sigmoid(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        alpha: float = ...,
        beta: float = ...,
    ) -> MLOperand: ...
    def hard_swish(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def identity(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def instance_normalization(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        scale: MLOperand = ...,
        bias: MLOperand = ...,
        epsilon: float = ...,
        layout: Literal["nchw", "nhwc"] = ...,
    ) -> MLOperand: ...
    def is_infinite(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def is_nan(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def l2_pool2d(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        window_dimensions: Sequence[int] = ...,
        padding: Sequence[int] = ...,
        strides: Sequence[int] = ...,
        dilations: Sequence[int] = ...,
        layout: Literal["nchw", "nhwc"] = ...,
        rounding_type: Literal["floor", "ceil"] = ...,
        output_sizes: Sequence[int] = ...,
    ) -> MLOperand: ...
    def layer_normalization(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        scale: MLOperand = ...,
        bias: MLOperand = ...,
        axes: Sequence[int] = ...,
        epsilon: float = ...,
    ) -> MLOperand: ...
    def leaky_relu(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        alpha: float = ...,
    ) -> MLOperand: ...
    def lesser(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def lesser_or_equal(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def linear(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        alpha: float = ...,
        beta: float = ...,
    ) -> MLOperand: ...
    def log(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def logical_and(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def logical_not(
        self,
        a: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def logical_or(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def logical_xor(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def lstm(
        self,
        input: MLOperand,
        weight: MLOperand,
        recurrent_weight: MLOperand,
        steps: int,
        hidden_size: int,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        bias: MLOperand = ...,
        recurrent_bias: MLOperand = ...,
        peephole_weight: MLOperand = ...,
        initial_hidden_state: MLOperand = ...,
        initial_cell_state: MLOperand = ...,
        return_sequence: bool = ...,
        direction: Literal["forward", "backward", "both"] = ...,
        layout: Literal["iofg", "ifgo"] = ...,
        activations: Sequence[Literal["relu", "sigmoid", "tanh"]] = ...,
    ) -> List[MLOperand]: ...
    def lstm_cell(
        self,
        input: MLOperand,
        weight: MLOperand,
        recurrent_weight: MLOperand,
        hidden_state: MLOperand,
        cell_state: MLOperand,
        hidden_size: int,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        bias: MLOperand = ...,
        recurrent_bias: MLOperand = ...,
        peephole_weight: MLOperand = ...,
        layout: Literal["iofg", "ifgo"] = ...,
        activations: Sequence[Literal["relu", "sigmoid", "tanh"]] = ...,
    ) -> List[MLOperand]: ...
    def matmul(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def max(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def max_pool2d(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        window_dimensions: Sequence[int] = ...,
        padding: Sequence[int] = ...,
        strides: Sequence[int] = ...,
        dilations: Sequence[int] = ...,
        layout: Literal["nchw", "nhwc"] = ...,
        rounding_type: Literal["floor", "ceil"] = ...,
        output_sizes: Sequence[int] = ...,
    ) -> MLOperand: ...
    def min(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def mul(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def neg(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def not_equal(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def pad(
        self,
        input: MLOperand,
        beginning_padding: Sequence[int],
        ending_padding: Sequence[int],
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        mode: Literal["constant", "edge", "reflection", "symmetric"] = ...,
        value: Union[int, float] = ...,
    ) -> MLOperand: ...
    def pow(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def prelu(
        self,
        input: MLOperand,
        slope: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def quantize_linear(
        self,
        input: MLOperand,
        scale: MLOperand,
        zero_point: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def reciprocal(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def reduce_l1(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        axes: Sequence[int] = ...,
        keep_dimensions: bool = ...,
    ) -> MLOperand: ...
    def reduce_l2(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        axes: Sequence[int] = ...,
        keep_dimensions: bool = ...,
    ) -> MLOperand: ...
    def reduce_log_sum(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        axes: Sequence[int] = ...,
        keep_dimensions: bool = ...,
    ) -> MLOperand: ...
    def reduce_log_sum_exp(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        axes: Sequence[int] = ...,
        keep_dimensions: bool = ...,
    ) -> MLOperand: ...
    def reduce_max(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        axes: Sequence[int] = ...,
        keep_dimensions: bool = ...,
    ) -> MLOperand: ...
    def reduce_mean(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        axes: Sequence[int] = ...,
        keep_dimensions: bool = ...,
    ) -> MLOperand: ...
    def reduce_min(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        axes: Sequence[int] = ...,
        keep_dimensions: bool = ...,
    ) -> MLOperand: ...
    def reduce_product(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        axes: Sequence[int] = ...,
        keep_dimensions: bool = ...,
    ) -> MLOperand: ...
    def reduce_sum(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        axes: Sequence[int] = ...,
        keep_dimensions: bool = ...,
    ) -> MLOperand: ...
    def reduce_sum_square(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        axes: Sequence[int] = ...,
        keep_dimensions: bool = ...,
    ) -> MLOperand: ...
    def relu(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def resample2d(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        mode: Literal["nearest-neighbor", "linear"] = ...,
        scales: Sequence[float] = ...,
        sizes: Sequence[int] = ...,
        axes: Sequence[int] = ...,
    ) -> MLOperand: ...
    def reshape(
        self,
        input: MLOperand,
        new_shape: Sequence[int],
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def reverse(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        axes: Sequence[int] = ...,
    ) -> MLOperand: ...
    def round_even(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def scatter_elements(
        self,
        input: MLOperand,
        indices: MLOperand,
        updates: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        axis: int = ...,
    ) -> MLOperand: ...
    def scatter_nd(
        self,
        input: MLOperand,
        indices: MLOperand,
        updates: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def sigmoid(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def sign(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def sin(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def slice(
        self,
        input: MLOperand,
        starts: Sequence[int],
        sizes: Sequence[int],
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        strides: Sequence[int] = ...,
    ) -> MLOperand: ...
    def softmax(
        self,
        input: MLOperand,
        axis: int,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def softplus(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def softsign(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def split(
        self,
        input: MLOperand,
        splits: Union[int, Sequence[int]],
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        axis: int = ...,
    ) -> List[MLOperand]: ...
    def sqrt(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def sub(
        self,
        a: MLOperand,
        b: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def tan(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def tanh(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def tile(
        self,
        input: MLOperand,
        repetitions: Sequence[int],
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    def transpose(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        permutation: Sequence[int] = ...,
    ) -> MLOperand: ...
    def triangular(
        self,
        input: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
        upper: bool = ...,
        diagonal: int = ...,
    ) -> MLOperand: ...
    def where(
        self,
        condition: MLOperand,
        true_value: MLOperand,
        false_value: MLOperand,
        options: Optional[Mapping[str, Any]] = None,
        *,
        label: str = ...,
    ) -> MLOperand: ...
    # END generated: MLGraphBuilder operations
