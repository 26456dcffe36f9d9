"""One WPT conformance case through the WebNN API for Python, as the upstream harness's
buildAndExecuteGraph does: operands by name, arguments positionally (the options dict last),
constants classic (constant(desc, data)) or hollow (constant(desc, label=...) filled after build()
with write_constant_data)."""
import math
import re

import webnn

from .compare import compare_output
from .tensor_data import INTEGER, element_count, encode, to_number

OP_NAMES = webnn._webnn.OP_NAMES


def fill_constant(graph, operand, tensor):
    """Whole when it has one element or one byte, otherwise in two chunks split on an element
    boundary, the second half first (as the C++ runner and the JS replay do)."""
    array = encode(tensor)
    raw = array.tobytes()
    count = element_count(tensor["shape"])
    bits = 4 if re.match(r"^u?int4$", tensor["dataType"]) else array.itemsize * 8
    first_elements = count // 2
    if bits < 8:
        first_elements &= ~1
    split = first_elements * bits // 8
    if count <= 1 or split == 0 or split >= len(raw):
        graph.set_constant_data(operand, array)
        return
    graph.write_constant_data(operand, split, raw[split:])
    graph.write_constant_data(operand, 0, raw[:split])


def literal(value):
    """A literal argument as upstream wrote it: decimal strings were BigInts, and the strings JSON
    uses for NaN, the infinities and -0 are numbers."""
    if not isinstance(value, str):
        return value
    if INTEGER.match(value):
        return int(value)
    if value in ("NaN", "Infinity", "-Infinity", "-0"):
        return to_number(value)
    return value


def replay_case(context, case, path):
    """None when `case` passes on `context` along `path` ("classic" or "hollow"); else what
    failed."""
    stage = "graph builder"
    try:
        builder = webnn.MLGraphBuilder(context)
        created, intermediates, graph_inputs, hollow = {}, {}, {}, []

        def operand_named(name):
            if name in created:
                return created[name]
            tensor = case["inputs"].get(name)
            if tensor is not None:
                descriptor = {"dataType": tensor["dataType"], "shape": tensor["shape"]}
                if not tensor.get("constant"):
                    operand = builder.input(name, descriptor)
                    graph_inputs[name] = tensor
                elif path == "classic":
                    operand = builder.constant(descriptor, encode(tensor))
                else:
                    operand = builder.constant(descriptor, label=name)
                    hollow.append((operand, tensor))
                created[name] = operand
                return operand
            return intermediates.get(name)

        def resolve(value):
            if isinstance(value, str):
                operand = operand_named(value)
                return operand if operand is not None else literal(value)
            if isinstance(value, list):
                return [resolve(item) if isinstance(item, str) else item for item in value]
            return value

        for call in case["operators"]:
            stage = call["name"]
            args = []
            for argument in call["arguments"]:
                for key, value in argument.items():
                    if key == "options":
                        args.append({k: (resolve(v) if isinstance(v, str) else v) for k, v in value.items()})
                    else:
                        args.append(resolve(value))
            # softmax without an axis (older vectors): the last axis, which their data match.
            if call["name"] == "softmax" and len(args) == 1:
                args.append(max(len(args[0].shape) - 1, 0))
            result = getattr(builder, OP_NAMES[call["name"]])(*args)
            names = call["outputs"] if isinstance(call["outputs"], list) else [call["outputs"]]
            outputs = result if isinstance(result, list) else [result]
            if len(outputs) != len(names):
                return f"{call['name']} returned {len(outputs)} operands, the vector names {len(names)}"
            intermediates.update(zip(names, outputs))

        graph_outputs = {}
        for name, expected in case["expectedOutputs"].items():
            operand = intermediates.get(name)
            if operand is None:
                raise RuntimeError(f"runner: expected output {name!r} is no operator's output")
            if operand.data_type != expected["dataType"] or operand.shape != expected["shape"]:
                return (f"output {name!r} is {operand.data_type} {operand.shape}, expected "
                        f"{expected['dataType']} {expected['shape']}")
            graph_outputs[name] = operand
        stage = "build"
        graph = builder.build(graph_outputs)

        if path == "hollow":
            stage = "pending_constants"
            if len(graph.pending_constants()) != len(hollow):
                return (f"after build {len(graph.pending_constants())} constants are pending, "
                        f"{len(hollow)} were declared hollow")
            stage = "write_constant_data"
            for operand, tensor in hollow:
                fill_constant(graph, operand, tensor)
            if graph.pending_constants():
                return "constants still pending after their data was written"

        stage = "create_tensor"
        inputs, outputs = {}, {}
        for name, tensor in graph_inputs.items():
            inputs[name] = context.create_tensor(
                {"dataType": tensor["dataType"], "shape": tensor["shape"], "writable": True})
            context.write_tensor(inputs[name], encode(tensor))
        for name, expected in case["expectedOutputs"].items():
            outputs[name] = context.create_tensor(
                {"dataType": expected["dataType"], "shape": expected["shape"], "readable": True})
        stage = "dispatch"
        context.dispatch(graph, inputs, outputs)
        stage = "read_tensor"
        differences = []
        for name, expected in case["expectedOutputs"].items():
            raw = context.read_tensor(outputs[name]).tobytes()
            difference = compare_output(expected, raw, case["tolerance"])
            if difference:
                differences.append(f"output {name!r} {expected['shape']}: {difference}")
        graph.destroy()
        for tensor in list(inputs.values()) + list(outputs.values()):
            tensor.destroy()
        return "; ".join(differences) or None
    except RuntimeError as error:
        if str(error).startswith("runner:"):
            raise
        return f"{type(error).__name__}: {error} (at {stage})"
    except (TypeError, ValueError, OverflowError, webnn.WebNNError) as error:
        return f"{type(error).__name__}: {error} (at {stage})"


__all__ = ["replay_case", "math"]
