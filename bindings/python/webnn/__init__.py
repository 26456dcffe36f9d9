"""The W3C WebNN API for Python, over webnn-cpp: weightless graphs, copy-once constants, numpy.

    import numpy as np, webnn
    context = webnn.ml.create_context()              # backend="cpu" | "reference" | "vulkan"
    builder = webnn.MLGraphBuilder(context)
    x = builder.input("x", {"dataType": "float32", "shape": [1, 4]})
    w = builder.constant({"dataType": "float32", "shape": [4, 2]}, label="w")   # hollow
    graph = builder.build({"y": builder.relu(builder.matmul(x, w))})
    graph.set_constant_data(graph.pending_constants()[0], np.ones((4, 2), np.float32))
    print(graph.compute({"x": np.arange(4, dtype=np.float32).reshape(1, 4)})["y"])

Operations and options take the spec's names in snake_case (conv_transpose2d, input_layout=...);
the spec's camelCase names are accepted too, and an options dict as the last positional argument.
Errors are the spec's: TypeError, and webnn.InvalidStateError, DataError, OperationError,
NotSupportedError, UnknownError (subclasses of webnn.WebNNError).
"""
from typing import Optional

from . import _webnn
from ._webnn import (  # noqa: F401
    DataError,
    InvalidStateError,
    MLContext,
    MLGraph,
    MLGraphBuilder,
    MLOperand,
    MLTensor,
    NotSupportedError,
    OperationError,
    UnknownError,
    WeightSource,
    WebNNError,
    available_backends,
)


class ML:
    """navigator.ml: the entry point (webnn.ml.create_context)."""

    @staticmethod
    def create_context(backend: Optional[str] = None, *, power_preference: str = "default",
                       num_threads: int = 0, profiling: bool = False,
                       constant_memory_budget: int = 0,
                       block_quantized_int8_activations: bool = False) -> MLContext:
        """An MLContext on `backend` ("cpu", "reference", "vulkan"; None: the default).

        constant_memory_budget: the most bytes of weights the backend keeps of its own (0: no
        limit); beyond it the largest float32 weights stay as the file stores them, and
        load_constants(allow_mapping=True) maps them (a model larger than memory runs, slower).
        block_quantized_int8_activations: products on 4-bit block-quantized weights multiply
        int8-quantized activations (llama.cpp's q4_0 x q8_0; faster, about 1e-2 from the float
        result)."""
        return _webnn.create_context(backend=backend,
                                     power_preference=power_preference,  # type: ignore[arg-type]
                                     num_threads=num_threads, profiling=profiling,
                                     constant_memory_budget=constant_memory_budget,
                                     block_quantized_int8_activations=block_quantized_int8_activations)


ml = ML()

from . import onnx  # noqa: E402,F401
from .session import InferenceSession  # noqa: E402,F401

__all__ = [
    "ml", "ML", "MLContext", "MLGraphBuilder", "MLOperand", "MLGraph", "MLTensor", "WeightSource",
    "WebNNError", "InvalidStateError", "DataError", "OperationError", "NotSupportedError",
    "UnknownError", "InferenceSession", "onnx", "available_backends",
]
