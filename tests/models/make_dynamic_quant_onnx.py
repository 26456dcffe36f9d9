#!/usr/bin/env python3
"""Writes a small CNN in the form ONNX Runtime's dynamic quantization (quantize_dynamic) gives a
model: each Conv as DynamicQuantizeLinear of its input, ConvInteger with uint8 weights and their
zero point, Cast to float, a multiply by input scale x weight scale and the bias; the classifier's
MatMul likewise through MatMulInteger. Seeded weights quantized per tensor (asymmetric uint8).
Needs Debian's python3-onnx and python3-numpy.
    make_dynamic_quant_onnx.py OUT.onnx [--channels 16] [--size 32]
"""
import argparse

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save


def quantize_uint8(w):
    low, high = min(float(w.min()), 0.0), max(float(w.max()), 0.0)
    scale = (high - low) / 255.0 or 1.0
    zero = int(np.clip(np.rint(-low / scale), 0, 255))
    return np.clip(np.rint(w / scale) + zero, 0, 255).astype(np.uint8), np.float32(scale), np.uint8(zero)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--channels", type=int, default=16)
    parser.add_argument("--size", type=int, default=32)
    o = parser.parse_args()
    rng = np.random.default_rng(5)
    nodes, inits = [], []
    count = [0]

    def name(prefix):
        count[0] += 1
        return f"{prefix}_{count[0]}"

    def init(prefix, value):
        tensor = numpy_helper.from_array(np.asarray(value), name(prefix))
        inits.append(tensor)
        return tensor.name

    def node(op, inputs, outputs=1, **attrs):
        outs = [name(op.lower()) for _ in range(outputs)]
        nodes.append(helper.make_node(op, inputs, outs, **attrs))
        return outs if outputs > 1 else outs[0]

    def dynamic(x):
        return node("DynamicQuantizeLinear", [x], outputs=3)

    def conv(x, cin, cout, stride):
        w = (rng.standard_normal((cout, cin, 3, 3)) / np.sqrt(9 * cin)).astype(np.float32)
        wq, ws, wz = quantize_uint8(w)
        xq, xs, xz = dynamic(x)
        y = node("ConvInteger", [xq, init("w", wq), xz, init("w_zero_point", wz)], pads=[1, 1, 1, 1],
                 strides=[stride, stride])
        scale = node("Mul", [xs, init("w_scale", ws)])
        y = node("Mul", [node("Cast", [y], to=TensorProto.FLOAT), scale])
        bias = init("b", (0.1 * rng.standard_normal((1, cout, 1, 1))).astype(np.float32))
        return node("Relu", [node("Add", [y, bias])])

    x = conv("x", 3, o.channels, 1)
    x = conv(x, o.channels, 2 * o.channels, 2)
    x = conv(x, 2 * o.channels, 2 * o.channels, 2)
    x = node("Flatten", [node("GlobalAveragePool", [x])])
    w = (rng.standard_normal((2 * o.channels, 10)) / np.sqrt(2 * o.channels)).astype(np.float32)
    wq, ws, wz = quantize_uint8(w)
    xq, xs, xz = dynamic(x)
    y = node("MatMulInteger", [xq, init("fc", wq), xz, init("fc_zero_point", wz)])
    y = node("Mul", [node("Cast", [y], to=TensorProto.FLOAT), node("Mul", [xs, init("fc_scale", ws)])])
    nodes.append(helper.make_node("Softmax", [y], ["y"], axis=-1))
    graph = helper.make_graph(
        nodes, "dynamic_quant_cnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, o.size, o.size])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    save(model, o.out)


if __name__ == "__main__":
    main()
