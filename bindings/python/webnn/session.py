"""An ONNX Runtime-shaped session over webnn-cpp, so that code written for onnxruntime switches
with one line: InferenceSession(path).run(None, {"x": array})."""
from typing import Any, Dict, List, Mapping, Optional, Sequence

import numpy as np
from numpy.typing import NDArray

from . import _webnn
from . import onnx as _onnx

_ONNX_TYPES = {
    "float32": "tensor(float)", "float16": "tensor(float16)", "int32": "tensor(int32)",
    "uint32": "tensor(uint32)", "int64": "tensor(int64)", "uint64": "tensor(uint64)",
    "int8": "tensor(int8)", "uint8": "tensor(uint8)", "int4": "tensor(int4)",
    "uint4": "tensor(uint4)",
}


class NodeArg:
    """An input or output of the session: name, shape and type as ONNX Runtime gives them."""

    def __init__(self, name: str, descriptor: Mapping[str, Any]) -> None:
        self.name = name
        self.shape = list(descriptor["shape"])
        self.type = _ONNX_TYPES[descriptor["dataType"]]

    def __repr__(self) -> str:
        return f"NodeArg(name={self.name!r}, type={self.type!r}, shape={self.shape!r})"


class InferenceSession:
    """The model imported weightless on a new context, built, its weights streamed in once.
    `providers` is accepted for ONNX Runtime's signature and ignored; `backend` chooses.
    Products on 4-bit weights (MatMulNBits) multiply int8 activations when every such node sets
    accuracy_level 4, as ONNX Runtime does; `int8_activations` True or False overrides that."""

    def __init__(self, path: _onnx.Path, sess_options: Any = None,
                 providers: Optional[Sequence[Any]] = None, *, backend: Optional[str] = None,
                 input_shapes: Optional[Mapping[str, Sequence[int]]] = None,
                 dimensions: Optional[Mapping[str, int]] = None,
                 int8_activations: Optional[bool] = None) -> None:
        del sess_options, providers
        if int8_activations is None:
            int8_activations = bool(_onnx.summarize(path)["allows_int8_activations"])
        self._context = _webnn.create_context(
            backend=backend, block_quantized_int8_activations=int8_activations)
        self._graph, self._model = _onnx.load_graph(path, self._context,
                                                    input_shapes=input_shapes,
                                                    dimensions=dimensions)
        self._inputs = [NodeArg(name, d) for name, d in self._model.inputs]
        self._outputs = [NodeArg(name, d) for name, d in self._model.outputs]

    def get_inputs(self) -> List[NodeArg]:
        return list(self._inputs)

    def get_outputs(self) -> List[NodeArg]:
        return list(self._outputs)

    def get_providers(self) -> List[str]:
        return [f"WebNN:{self._context.backend_name}"]

    def run(self, output_names: Optional[Sequence[str]], input_feed: Mapping[str, Any],
            run_options: Any = None) -> List[NDArray[Any]]:
        """The outputs named (None: all, in the model's order) as numpy arrays."""
        del run_options
        feeds: Dict[str, Any] = {name: np.ascontiguousarray(value)
                                 for name, value in input_feed.items()}
        results = self._graph.compute(feeds)
        names = output_names or [o.name for o in self._outputs]
        missing = [n for n in names if n not in results]
        if missing:
            raise TypeError(f"run(): the model has no output {', '.join(missing)}")
        return [results[n] for n in names]
