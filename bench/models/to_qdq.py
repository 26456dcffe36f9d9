#!/usr/bin/env python3
"""Turns a float32 ONNX model into an int8 QDQ one, the format of ONNX Runtime's static
quantization (quantize_static, QDQ, QUInt8 activations, QInt8 per-channel weights), for the
quantized-model benchmark (issue 23):

- every Conv whose filter is a float32 initializer (and every MatMul whose B is a 2-D one, per
  column, without bias): its input goes through QuantizeLinear ->
  DequantizeLinear (uint8, asymmetric, scale and zero point from the calibrated range, widened to
  include 0); its filter becomes an int8 initializer, symmetric per output channel (scale
  max|w| / 127, zero point 0) behind a DequantizeLinear(axis 0); its bias an int32 initializer of
  scale input scale x filter scale behind a DequantizeLinear. One DequantizeLinear per Conv (a
  dedicated pair: ORT's DedicatedQDQPair), one QuantizeLinear per tensor.
- calibration: the model runs once on ONNX Runtime (bench/models/ort_bench.js, onnxruntime-node)
  on the given inputs with every Conv input added as an output; the min and max of each are the
  range (MinMax calibration on one sample).

Debian's python3-onnx and numpy; node with NODE_PATH holding onnxruntime-node.
  to_qdq.py MODEL.onnx OUT.onnx [--input NAME=FILE.npy ...]
(an input given no sample is calibrated on seeded uniform [0, 1) data of its static shape)
Prints one summary line to stderr.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path, inputs):
    """The model at opset 13 or later (per-axis DequantizeLinear), BatchNormalization after a Conv
    folded into the Conv's filter and bias (as ORT's quantization pre-processing does)."""
    model = onnx.load(path)  # external data next to the model is read too
    # The calibration inputs' shapes, so that shape inference (which the version converter needs)
    # resolves every shape.
    for spec in inputs:
        name, file = spec.split("=", 1)
        shape = np.load(file, mmap_mode="r").shape
        for graph_input in model.graph.input:
            if graph_input.name == name:
                dims = graph_input.type.tensor_type.shape.dim
                for dim, size in zip(dims, shape):
                    dim.Clear()
                    dim.dim_value = size
    version = max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    if version < 13:
        model = to_opset_13(model, inputs)
    constants_to_initializers(model)
    fold_batch_normalization(model)
    return model


def to_opset_13(model, inputs):
    """onnx's version converter to opset 12, then 12 -> 13 by hand for the ops whose meaning
    changed there (its own adapter for Softmax needs every shape, which models with Shape-computed
    reshapes do not give): Squeeze / Unsqueeze axes become an input; Softmax, LogSoftmax and
    Hardmax must be over the last axis (where 12's and 13's meanings agree)."""
    from onnx import version_converter
    model = version_converter.convert_version(model, 12)
    inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)
    ranks = {v.name: len(v.type.tensor_type.shape.dim)
             for v in list(inferred.graph.value_info) + list(inferred.graph.input) + list(inferred.graph.output)
             if v.type.tensor_type.HasField("shape")}
    graph = model.graph
    # Ranks shape inference leaves open: from a run of ONNX Runtime.
    unknown = [n.input[0] for n in graph.node
               if n.op_type in ("Softmax", "LogSoftmax", "Hardmax") and n.input[0] not in ranks]
    if unknown:
        with tempfile.TemporaryDirectory() as work:
            for name, (_, _, rank) in calibrate(model, unknown, inputs, work).items():
                ranks[name] = rank
    for node in graph.node:
        if node.op_type in ("Squeeze", "Unsqueeze"):
            axes = [a for a in node.attribute if a.name == "axes"]
            if axes:
                name = f"{node.output[0]}_axes"
                graph.initializer.append(numpy_helper.from_array(np.array(axes[0].ints, np.int64), name))
                node.attribute.remove(axes[0])
                node.input.append(name)
        elif node.op_type in ("Softmax", "LogSoftmax", "Hardmax"):
            axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
            rank = ranks.get(node.input[0])
            if axis != -1 and (rank is None or axis != rank - 1):
                sys.exit(f"to_qdq: {node.op_type} over axis {axis} of rank {rank}: not converted to opset 13")
        elif node.op_type in ("Split", "ReduceSum"):
            sys.exit(f"to_qdq: {node.op_type} is not converted from opset 12 to 13 here")
    for opset in model.opset_import:
        if opset.domain in ("", "ai.onnx"):
            opset.version = 13
    return model


def constants_to_initializers(model):
    """Constant nodes holding a tensor (Paddle's exports keep weights there) as initializers."""
    graph = model.graph
    for node in list(graph.node):
        if node.op_type != "Constant" or len(node.attribute) != 1 or node.attribute[0].name != "value":
            continue
        tensor = onnx.TensorProto()
        tensor.CopyFrom(node.attribute[0].t)
        tensor.name = node.output[0]
        graph.initializer.append(tensor)
        graph.node.remove(node)


def fold_batch_normalization(model):
    graph = model.graph
    initializers = {i.name: i for i in graph.initializer}
    consumers = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    outputs = {o.name for o in graph.output}
    removed = []
    for node in list(graph.node):
        if node.op_type != "Conv" or len(node.input) < 2 or node.input[1] not in initializers:
            continue
        after = consumers.get(node.output[0], [])
        if len(after) != 1 or after[0].op_type != "BatchNormalization" or node.output[0] in outputs:
            continue
        bn = after[0]
        if any(name not in initializers for name in bn.input[1:5]):
            continue
        epsilon = next((a.f for a in bn.attribute if a.name == "epsilon"), 1e-5)
        gamma, beta, mean, var = (numpy_helper.to_array(initializers[n]).astype(np.float64)
                                  for n in bn.input[1:5])
        factor = gamma / np.sqrt(var + epsilon)
        weight = numpy_helper.to_array(initializers[node.input[1]]).astype(np.float64)
        bias = (numpy_helper.to_array(initializers[node.input[2]]).astype(np.float64)
                if len(node.input) > 2 and node.input[2] else np.zeros(weight.shape[0]))
        weight = weight * factor.reshape((-1,) + (1,) * (weight.ndim - 1))
        bias = (bias - mean) * factor + beta
        w_name, b_name = node.input[1] + "_bn_folded", node.output[0] + "_bn_folded_bias"
        graph.initializer.extend([numpy_helper.from_array(weight.astype(np.float32), w_name),
                                  numpy_helper.from_array(bias.astype(np.float32), b_name)])
        initializers[w_name] = graph.initializer[-2]
        initializers[b_name] = graph.initializer[-1]
        inputs = [node.input[0], w_name, b_name]
        del node.input[:]
        node.input.extend(inputs)
        del node.output[:]
        node.output.extend([bn.output[0]])
        removed.append(bn)
    for bn in removed:
        graph.node.remove(bn)


def conv_inputs(model):
    """The Conv nodes whose filter is a float32 initializer and the MatMul nodes whose B is a 2-D
    float32 initializer, and the initializers."""
    initializers = {i.name: i for i in model.graph.initializer}
    convs = []
    for node in model.graph.node:
        if node.op_type not in ("Conv", "MatMul") or len(node.input) < 2:
            continue
        weight = initializers.get(node.input[1])
        if weight is None or weight.data_type != TensorProto.FLOAT:
            continue
        if node.op_type == "MatMul" and len(weight.dims) != 2:
            continue
        if node.input[0] in initializers:
            continue
        convs.append(node)
    return convs, initializers


def calibrate(model, tensors, inputs, work):
    """min / max (and rank) of each tensor over one run of ONNX Runtime on `inputs`."""
    instrumented = onnx.ModelProto()
    instrumented.CopyFrom(model)
    for i, name in enumerate(tensors):
        out = f"calib_{i}"
        instrumented.graph.node.append(helper.make_node("Identity", [name], [out]))
        instrumented.graph.output.append(helper.make_tensor_value_info(out, TensorProto.FLOAT, None))
    path = os.path.join(work, "instrumented.onnx")
    onnx.save(instrumented, path, save_as_external_data=True, location="instrumented.onnx.data")
    outputs = os.path.join(work, "outputs")
    os.makedirs(outputs, exist_ok=True)
    command = ["node", os.path.join(HERE, "ort_bench.js"), path, "--threads", "2", "--iterations", "1",
               "--save-outputs", outputs]
    for spec in inputs:
        command += ["--input", spec]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    ranges = {}
    for i, name in enumerate(tensors):
        values = np.load(os.path.join(outputs, f"calib_{i}.npy"))
        ranges[name] = (float(values.min()), float(values.max()), values.ndim)
    return ranges


def activation_parameters(low, high):
    low, high = min(low, 0.0), max(high, 0.0)
    scale = (high - low) / 255.0
    if scale == 0.0:
        scale = 1.0
    zero_point = int(np.clip(np.round(-low / scale), 0, 255))
    return np.float32(scale), np.uint8(zero_point)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model")
    parser.add_argument("out")
    parser.add_argument("--input", action="append", default=[], help="NAME=FILE.npy for calibration")
    parser.add_argument("--matmul-per-tensor", action="store_true",
                        help="one scale for each MatMul's B (quantize_static's default, per_channel=False)")
    args = parser.parse_args()
    model = load(args.model, args.input)
    convs, initializers = conv_inputs(model)
    if not convs:
        sys.exit(f"to_qdq: {args.model} has no Conv or MatMul with float32 initializer weights")
    activations = sorted({node.input[0] for node in convs})
    with tempfile.TemporaryDirectory() as work:
        # Graph inputs without a given sample: seeded uniform [0, 1) data of their static shape.
        given = {spec.split("=", 1)[0] for spec in args.input}
        initializer_names = {i.name for i in model.graph.initializer}
        for graph_input in model.graph.input:
            if graph_input.name in given or graph_input.name in initializer_names:
                continue
            dims = [d.dim_value for d in graph_input.type.tensor_type.shape.dim]
            if not dims or any(d <= 0 for d in dims):
                sys.exit(f"to_qdq: input {graph_input.name} has no static shape: give --input")
            path = os.path.join(work, f"calibration_{len(args.input)}.npy")
            np.save(path, np.random.default_rng(7).random(dims, dtype=np.float32))
            args.input.append(f"{graph_input.name}={path}")
        ranges = calibrate(model, activations, args.input, work)

    graph = model.graph
    new_initializers = []
    quantized = {}  # activation -> (q output, scale name, zero point name, scale)
    q_nodes = []
    for name in activations:
        scale, zero_point = activation_parameters(*ranges[name][:2])
        scale_name, zero_name, q_name = f"{name}_qscale", f"{name}_qzero", f"{name}_quantized"
        new_initializers += [numpy_helper.from_array(np.array(scale, np.float32), scale_name),
                             numpy_helper.from_array(np.array(zero_point, np.uint8), zero_name)]
        q_nodes.append(helper.make_node("QuantizeLinear", [name, scale_name, zero_name], [q_name],
                                        name=f"{name}_QuantizeLinear"))
        quantized[name] = (q_name, scale_name, zero_name, float(scale))
    replaced = set()
    dq_nodes = {}  # conv name -> the DequantizeLinear nodes it reads
    weight_bytes = 0
    for index, node in enumerate(convs):
        tag = node.name or f"conv{index}"
        q_name, scale_name, zero_name, input_scale = quantized[node.input[0]]
        dq_input = f"{tag}_input_dequantized"
        nodes = [helper.make_node("DequantizeLinear", [q_name, scale_name, zero_name], [dq_input],
                                  name=f"{tag}_input_DequantizeLinear")]
        weight = numpy_helper.to_array(initializers[node.input[1]]).astype(np.float32)
        # Per output channel: a Conv filter's axis 0, a MatMul B's columns (axis 1).
        axis = 1 if node.op_type == "MatMul" else 0
        channels = weight.shape[axis]
        amax = np.abs(np.moveaxis(weight, axis, 0).reshape(channels, -1)).max(axis=1)
        if node.op_type == "MatMul" and args.matmul_per_tensor:
            amax = np.full(channels, np.abs(weight).max())
        w_scale = np.where(amax > 0, amax / 127.0, 1.0).astype(np.float32)
        shape = [1] * weight.ndim
        shape[axis] = channels
        shaped = w_scale.reshape(shape)
        w_q = np.clip(np.round(weight / shaped), -127, 127).astype(np.int8)
        weight_bytes += w_q.nbytes
        base = f"{tag}_weight"
        per_tensor = node.op_type == "MatMul" and args.matmul_per_tensor
        new_initializers += [numpy_helper.from_array(w_q, f"{base}_quantized"),
                             numpy_helper.from_array(np.array(w_scale[0]) if per_tensor else w_scale,
                                                     f"{base}_scale"),
                             numpy_helper.from_array(np.array(0, np.int8) if per_tensor
                                                     else np.zeros(channels, np.int8), f"{base}_zero")]
        nodes.append(helper.make_node("DequantizeLinear",
                                      [f"{base}_quantized", f"{base}_scale", f"{base}_zero"],
                                      [f"{base}_dequantized"], name=f"{base}_DequantizeLinear",
                                      **({} if per_tensor else {"axis": axis})))
        replaced.add(node.input[1])
        inputs = [dq_input, f"{base}_dequantized"]
        if node.op_type == "Conv" and len(node.input) > 2 and node.input[2] in initializers:
            bias = numpy_helper.to_array(initializers[node.input[2]]).astype(np.float64)
            b_scale = (np.float64(input_scale) * w_scale.astype(np.float64)).astype(np.float32)
            b_q = np.clip(np.round(bias / b_scale), -2**31, 2**31 - 1).astype(np.int32)
            bias_base = f"{tag}_bias"
            new_initializers += [numpy_helper.from_array(b_q, f"{bias_base}_quantized"),
                                 numpy_helper.from_array(b_scale, f"{bias_base}_scale"),
                                 numpy_helper.from_array(np.zeros(channels, np.int32), f"{bias_base}_zero")]
            nodes.append(helper.make_node("DequantizeLinear",
                                          [f"{bias_base}_quantized", f"{bias_base}_scale", f"{bias_base}_zero"],
                                          [f"{bias_base}_dequantized"], name=f"{bias_base}_DequantizeLinear",
                                          axis=0))
            replaced.add(node.input[2])
            inputs.append(f"{bias_base}_dequantized")
        elif len(node.input) > 2:
            inputs.append(node.input[2])
        del node.input[:]
        node.input.extend(inputs)
        dq_nodes[id(node)] = nodes

    # Nodes in a topological order: each QuantizeLinear right after the producer of its tensor (or
    # first, for graph inputs), each Conv's DequantizeLinear nodes right before it.
    produced_by = {}
    for node in graph.node:
        for out in node.output:
            produced_by[out] = id(node)
    q_after = {}
    leading = []
    for q in q_nodes:
        producer = produced_by.get(q.input[0])
        (q_after.setdefault(producer, []) if producer is not None else leading).append(q)
    ordered = list(leading)
    for node in list(graph.node):
        ordered += dq_nodes.get(id(node), [])
        ordered.append(node)
        ordered += q_after.get(id(node), [])
    del graph.node[:]
    graph.node.extend(ordered)
    used = {name for n in graph.node for name in n.input}
    kept = [i for i in graph.initializer if i.name in used]  # what folding and quantizing left
    float_bytes = sum(numpy_helper.to_array(initializers[name]).nbytes for name in replaced)
    del graph.initializer[:]
    graph.initializer.extend(kept + [i for i in new_initializers if i.name in used])
    # QuantizeLinear / DequantizeLinear with per-axis scales need opset 13.
    for opset in model.opset_import:
        if opset.domain in ("", "ai.onnx") and opset.version < 13:
            opset.version = 13
    onnx.save(model, args.out)
    kinds = {k: sum(n.op_type == k for n in convs) for k in ("Conv", "MatMul")}
    print(f"to_qdq: {args.model} -> {args.out}: {kinds['Conv']} Conv and {kinds['MatMul']} MatMul quantized ({len(activations)} "
          f"activations calibrated on one sample), weights {float_bytes / 2**20:.2f} MiB float32 -> "
          f"{weight_bytes / 2**20:.2f} MiB int8", file=sys.stderr)


if __name__ == "__main__":
    main()
