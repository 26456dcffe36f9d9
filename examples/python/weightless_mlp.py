#!/usr/bin/env python3
"""A two-layer MLP built weightless through the WebNN API for Python, its weights streamed in after
build() from a safetensors file (written here first, so the example needs nothing else), then run
on a numpy array.
    PYTHONPATH=build/release/python python3 examples/python/weightless_mlp.py
"""
import json
import os
import struct
import tempfile
from typing import Any, Mapping

import numpy as np
from numpy.typing import NDArray

import webnn


def write_safetensors(path: str, tensors: Mapping[str, NDArray[Any]]) -> None:
    header, offset = {}, 0
    for name, array in tensors.items():
        header[name] = {"dtype": "F32", "shape": list(array.shape),
                        "data_offsets": [offset, offset + array.nbytes]}
        offset += array.nbytes
    encoded = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(encoded)) + encoded)
        for array in tensors.values():
            f.write(array.astype(np.float32).tobytes())


def main() -> None:
    w1 = ((np.arange(4 * 8) % 5 - 2) / 4).astype(np.float32).reshape(4, 8)
    w2 = ((np.arange(8 * 3) % 3 - 1) / 2).astype(np.float32).reshape(8, 3)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "mlp.safetensors")
        write_safetensors(path, {"fc1.weight": w1, "fc2.weight": w2})

        # The weightless path: constants by descriptor and label, no bytes until after build().
        context = webnn.ml.create_context()
        builder = webnn.MLGraphBuilder(context)
        x = builder.input("x", {"dataType": "float32", "shape": [1, 4]})
        fc1 = builder.constant({"dataType": "float32", "shape": [4, 8]}, label="fc1.weight")
        fc2 = builder.constant({"dataType": "float32", "shape": [8, 3]}, label="fc2.weight")
        hidden = builder.relu(builder.matmul(x, fc1))
        graph = builder.build({"y": builder.softmax(builder.matmul(hidden, fc2), axis=1)})
        print("pending after build:", ", ".join(c.label for c in graph.pending_constants()))

        graph.load_constants(path, on_progress=lambda done, total: print(f"loaded {done} of {total} bytes"))
        print("pending after load_constants:", len(graph.pending_constants()))

    y = graph.compute({"x": np.array([[1, 2, 3, 4]], np.float32)})["y"]
    print("y =", " ".join(f"{v:.4f}" for v in y.ravel()))
    print("on:", context.backend_name, "memory:", context.memory_stats())


if __name__ == "__main__":
    main()
