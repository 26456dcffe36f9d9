#!/usr/bin/env python3
"""Writes a one-layer ONNX LSTM or GRU model for the model benchmark (bench/models): input
X [steps, batch, input], seeded random weights scaled by 1/sqrt(hidden), biases, every output
(Y, Y_h and, for an LSTM, Y_c). Needs Debian's python3-onnx and python3-numpy.
    make_recurrent_onnx.py OUT.onnx [--kind lstm|gru] [--steps 64] [--batch 1] [--input 64]
        [--hidden 64] [--direction forward|reverse|bidirectional]
"""
import argparse

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--kind", choices=["lstm", "gru"], default="lstm")
    parser.add_argument("--steps", type=int, default=64)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--input", type=int, default=64)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--direction", choices=["forward", "reverse", "bidirectional"], default="forward")
    o = parser.parse_args()
    gates = 4 if o.kind == "lstm" else 3
    directions = 2 if o.direction == "bidirectional" else 1
    rng = np.random.default_rng(11)
    scale = 1.0 / np.sqrt(o.hidden)

    def weight(*shape):
        return (rng.uniform(-1, 1, shape) * scale).astype(np.float32)

    initializers = [
        numpy_helper.from_array(weight(directions, gates * o.hidden, o.input), "W"),
        numpy_helper.from_array(weight(directions, gates * o.hidden, o.hidden), "R"),
        numpy_helper.from_array(weight(directions, 2 * gates * o.hidden), "B"),
    ]
    outputs = ["Y", "Y_h"] + (["Y_c"] if o.kind == "lstm" else [])
    node = helper.make_node(o.kind.upper(), ["X", "W", "R", "B"], outputs, hidden_size=o.hidden,
                            direction=o.direction)
    shapes = {"Y": [o.steps, directions, o.batch, o.hidden], "Y_h": [directions, o.batch, o.hidden],
              "Y_c": [directions, o.batch, o.hidden]}
    graph = helper.make_graph(
        [node], f"{o.kind}_{o.steps}x{o.hidden}",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [o.steps, o.batch, o.input])],
        [helper.make_tensor_value_info(name, TensorProto.FLOAT, shapes[name]) for name in outputs],
        initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)],
                              producer_name="webnn-cpp bench")
    model.ir_version = 8
    save(model, o.out)


if __name__ == "__main__":
    main()
