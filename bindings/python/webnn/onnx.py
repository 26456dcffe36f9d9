"""ONNX models imported weightless, as `webnn run` does: the graph from the model's nodes, every
initializer a hollow constant, then its bytes streamed from the model file after build()."""
import os
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple, Union

from . import _webnn

Path = Union[str, "os.PathLike[str]"]


def load(path: Path, builder: _webnn.MLGraphBuilder, *,
         input_shapes: Optional[Mapping[str, Sequence[int]]] = None,
         dimensions: Optional[Mapping[str, int]] = None) -> _webnn.ImportedModel:
    """Imports the model at `path` into `builder`. Returns an ImportedModel: inputs and outputs
    ([(name, descriptor)]), output_operands (what builder.build() takes) and weights (a
    WeightSource for graph.load_constants). `input_shapes` fixes inputs' dynamic dimensions
    ({"x": [1, 3, 224, 224]}), `dimensions` symbolic ones by name ({"batch": 1})."""
    if not _webnn.HAVE_ONNX:
        raise _webnn.NotSupportedError("this build of webnn-cpp has no ONNX importer (libonnx-dev)")
    return _webnn.onnx_load(path, builder, input_shapes=input_shapes or {},
                            dimensions=dimensions or {})


def summarize(path: Path) -> Mapping[str, Any]:
    """What the model asks of the runtime, read from its structure alone (no weight byte, nothing
    built): opset_version, producer, block_quantized_matmuls (com.microsoft MatMulNBits nodes),
    int8_accuracy_matmuls (those with accuracy_level 4) and allows_int8_activations (every one
    of them: create the context with block_quantized_int8_activations=True to compute as ONNX
    Runtime does)."""
    if not _webnn.HAVE_ONNX:
        raise _webnn.NotSupportedError("this build of webnn-cpp has no ONNX importer (libonnx-dev)")
    return _webnn.onnx_summarize(path)


def load_graph(path: Path, context: _webnn.MLContext, *,
               input_shapes: Optional[Mapping[str, Sequence[int]]] = None,
               dimensions: Optional[Mapping[str, int]] = None,
               on_progress: Optional[Callable[[int, int], Any]] = None,
               ) -> Tuple[_webnn.MLGraph, _webnn.ImportedModel]:
    """Imports, builds and fills the model: returns (graph, model)."""
    builder = _webnn.MLGraphBuilder(context)
    model = load(path, builder, input_shapes=input_shapes, dimensions=dimensions)
    graph = builder.build(model.output_operands)
    graph.load_constants(model.weights, on_progress=on_progress)
    return graph, model
