#!/usr/bin/python3
# Converts a float32 ONNX model into a float16 one, for the float16 runs of the model benchmark
# (bench/models/run_models_bench.sh --float16). Needs only Debian's python3-onnx and python3-numpy
# (apt-get install -y python3-onnx python3-numpy).
#   bench/models/to_float16.py IN.onnx OUT.onnx
# Prints one summary line. What becomes float16: every float32 initializer, graph input, graph
# output and value_info, the tensors of Constant / ConstantOfShape (and Constant's value_float(s)),
# Cast(to=FLOAT) becomes Cast(to=FLOAT16), and a `dtype` attribute of FLOAT becomes FLOAT16.
# What stays float32: each input or output that its op's schema (onnx.defs.get_schema, at the
# model's opset) allows as tensor(float) but not tensor(float16), e.g. Resize's `scales` or
# LayerNormalization's Mean/InvStdDev outputs. A constant (initializer, Constant, ConstantOfShape,
# Cast(to=FLOAT)) that only feeds such inputs stays float32 as it is; any other float value that
# feeds one goes through an inserted Cast(to=FLOAT), and such an output is cast to float16 for its
# other users. Finite values beyond +-65504 are clamped to +-65504 (counted in the summary), but
# first a BatchNormalization (inference form, constant parameters) whose parameters go beyond float16
# is rewritten exactly as scale' = scale / sqrt(var + eps), B' = B - scale' * mean, mean' = 0,
# var' = 1 - eps: PaddleOCR det's has variances up to 1e8, and clamping them ruins its output.
# A model with external data (.onnx.data) is written with its weights in OUT.onnx.data.
# The output is checked with onnx.checker.check_model(full_check=True), unless the installed onnx
# is older than the model's IR version or opset (Debian 12's onnx 1.12 knows IR 8 / opset 17; the
# MLP and encoder generators write IR 9 / opset 20) or the input model fails that check as well:
# the summary says which.
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, defs, helper, numpy_helper, shape_inference

F32, F16 = TensorProto.FLOAT, TensorProto.FLOAT16
HALF_MAX = 65504.0
FLOAT, HALF = "tensor(float)", "tensor(float16)"


class Stats:
    def __init__(self):
        self.tensors = 0          # tensors converted (initializers and constant attributes)
        self.elements = 0         # their elements
        self.clamped = 0          # finite values beyond +-65504, clamped
        self.flushed = 0          # nonzero values that became 0 in float16
        self.casts_retargeted = 0  # Cast(to=FLOAT) -> Cast(to=FLOAT16)
        self.casts_inserted = 0   # Casts added around float32-only inputs/outputs
        self.kept = {}            # "Op.input" -> count of constants left float32 (schema)
        self.unknown_ops = set()  # ops without a schema here (no float32 rule checked)
        self.batchnorms = 0       # BatchNormalizations rewritten (parameters beyond float16)


stats = Stats()


# --- Values: float32 arrays to float16, clamping overflow ---------------------------------------
def to_half(array):
    a = np.asarray(array, dtype=np.float32)
    with np.errstate(over="ignore"):
        h = a.astype(np.float16)
    over = np.isinf(h) & np.isfinite(a)  # finite values that float16 rounds to +-inf
    if over.any():
        stats.clamped += int(np.count_nonzero(over))
        h[over] = np.copysign(HALF_MAX, a[over])
    stats.flushed += int(np.count_nonzero((h == 0) & (a != 0)))
    stats.tensors += 1
    stats.elements += a.size
    return h


def half_tensor(tensor):
    """A float16 copy of a float32 TensorProto (same name, dims and doc string)."""
    out = numpy_helper.from_array(to_half(numpy_helper.to_array(tensor)), tensor.name)
    out.doc_string = tensor.doc_string
    return out


# --- BatchNormalization with parameters beyond float16: the same function, in range -------------
def fold_batchnorms(graph):
    constants = {t.name: t for t in graph.initializer}
    for node in graph.node:
        if node.op_type == "Constant" and node.attribute and node.attribute[0].name == "value":
            constants[node.output[0]] = node.attribute[0].t
    readers = {}
    for node in graph.node:
        for name in node.input:
            readers[name] = readers.get(name, 0) + 1
    for node in graph.node:
        attrs = {a.name: a for a in node.attribute}
        if (node.op_type != "BatchNormalization" or len(node.input) != 5 or len(node.output) != 1
                or ("training_mode" in attrs and attrs["training_mode"].i)):
            continue
        params = node.input[1:]
        if not all(p in constants and constants[p].data_type == F32 and readers[p] == 1
                   for p in params):
            continue  # shared or computed parameters: left to the clamp
        scale, bias, mean, var = (numpy_helper.to_array(constants[p]).astype(np.float64)
                                  for p in params)
        eps = attrs["epsilon"].f if "epsilon" in attrs else 1e-5
        if max(np.abs(a).max(initial=0) for a in (scale, bias, mean, var)) <= HALF_MAX or eps >= 1:
            continue
        folded_scale = scale / np.sqrt(var + eps)
        folded = [folded_scale, bias - folded_scale * mean, np.zeros_like(mean),
                  np.full_like(var, 1 - eps)]
        if max(np.abs(a).max(initial=0) for a in folded) > HALF_MAX:
            continue
        for p, values in zip(params, folded):
            constants[p].CopyFrom(numpy_helper.from_array(values.astype(np.float32),
                                                          constants[p].name))
        stats.batchnorms += 1
    for node in graph.node:
        for g in subgraphs(node):
            fold_batchnorms(g)


# --- Schemas: which inputs/outputs an op allows only as float32 ---------------------------------
schema_cache = {}


def schema_of(node, opsets):
    domain = "" if node.domain in ("", "ai.onnx") else node.domain
    key = (node.op_type, domain)
    if key not in schema_cache:
        try:
            schema_cache[key] = defs.get_schema(node.op_type, opsets.get(domain, 1), domain)
        except Exception:  # unknown op, newer than this onnx, or a custom domain
            schema_cache[key] = None
            stats.unknown_ops.add(node.op_type if not domain else domain + "." + node.op_type)
    return schema_cache[key]


def formal_types(schema, formals, index):
    """Allowed type strings of the index-th input/output (None when the schema has no such one)."""
    if index < len(formals):
        formal = formals[index]
    elif formals and formals[-1].option == defs.OpSchema.FormalParameterOption.Variadic:
        formal = formals[-1]
    else:
        return None
    for constraint in schema.type_constraints:
        if constraint.type_param_str == formal.typeStr:
            return list(constraint.allowed_type_strs)
    return [formal.typeStr]


def float32_only(schema, formals, index):
    allowed = formal_types(schema, formals, index) if schema else None
    return bool(allowed) and FLOAT in allowed and HALF not in allowed


def formal_name(schema, formals, index):
    return formals[min(index, len(formals) - 1)].name


# --- Types of the original model's values (shape inference, then a simple forward pass) --------
TYPE_OF_STR = {"tensor(" + k + ")": v for k, v in
               [("float", F32), ("float16", F16), ("double", TensorProto.DOUBLE),
                ("int64", TensorProto.INT64), ("int32", TensorProto.INT32),
                ("bool", TensorProto.BOOL), ("uint8", TensorProto.UINT8),
                ("int8", TensorProto.INT8)]}


def subgraphs(node):
    for a in node.attribute:
        if a.type == onnx.AttributeProto.GRAPH:
            yield a.g
        elif a.type == onnx.AttributeProto.GRAPHS:
            yield from a.graphs


def value_types(model, opsets):
    types = {}
    # Inference needs the initializers' types and shapes only: their data is set aside meanwhile.
    data = [(t, t.raw_data) for t in model.graph.initializer if t.raw_data]
    for t, _ in data:
        t.ClearField("raw_data")
    try:  # non-strict: ops this onnx does not know are skipped
        inferred = shape_inference.infer_shapes(model).graph
    except Exception:
        inferred = model.graph
    finally:
        for t, raw in data:
            t.raw_data = raw

    def collect(graph):
        for vi in list(graph.input) + list(graph.output) + list(graph.value_info):
            if vi.type.HasField("tensor_type") and vi.type.tensor_type.elem_type:
                types[vi.name] = vi.type.tensor_type.elem_type
        for t in graph.initializer:
            types[t.name] = t.data_type
        for node in graph.node:
            for g in subgraphs(node):
                collect(g)
    collect(model.graph)
    collect(inferred)

    def forward(graph):  # fills what inference left out (e.g. after an op it does not know)
        for node in graph.node:
            for g in subgraphs(node):
                forward(g)
            attrs = {a.name: a for a in node.attribute}
            for i, out in enumerate(node.output):
                if not out or out in types:
                    continue
                if node.op_type == "Cast" and "to" in attrs:
                    types[out] = attrs["to"].i
                elif node.op_type in ("Constant", "ConstantOfShape"):
                    value = attrs.get("value")
                    types[out] = value.t.data_type if value is not None else (
                        F32 if node.op_type == "ConstantOfShape" or "value_float" in attrs
                        or "value_floats" in attrs else 0)
                else:
                    schema = schema_of(node, opsets)
                    t = 0
                    if schema:
                        allowed = formal_types(schema, schema.outputs, i) or []
                        param = schema.outputs[min(i, len(schema.outputs) - 1)].typeStr \
                            if schema.outputs else ""
                        if param in TYPE_OF_STR:
                            t = TYPE_OF_STR[param]
                        else:  # a type parameter: the type of an input bound to it
                            for j, name in enumerate(node.input):
                                if (name in types and schema.inputs and
                                        schema.inputs[min(j, len(schema.inputs) - 1)].typeStr
                                        == param):
                                    t = types[name]
                                    break
                        if not t and len(allowed) == 1 and allowed[0] in TYPE_OF_STR:
                            t = TYPE_OF_STR[allowed[0]]
                    elif node.input and node.input[0] in types:  # unknown op: as its first input
                        t = types[node.input[0]]
                    if t:
                        types[out] = t
    forward(model.graph)
    return types


# --- The conversion of one graph (and its subgraphs) --------------------------------------------
def unique(name, taken):
    candidate, n = name, 1
    while candidate in taken:
        candidate, n = f"{name}_{n}", n + 1
    taken.add(candidate)
    return candidate


def convert_graph(graph, types, opsets, taken):
    inits = {t.name: t for t in graph.initializer}
    graph_outputs = {o.name for o in graph.output}
    is_float = lambda name: bool(name) and types.get(name) == F32

    # Uses of each float value: (node, input index, float32-only?); subgraph reads count as float16.
    uses = {}
    for node in graph.node:
        schema = schema_of(node, opsets)
        for i, name in enumerate(node.input):
            if is_float(name):
                only = float32_only(schema, schema.inputs if schema else [], i)
                uses.setdefault(name, []).append((node, i, only))
        for g in subgraphs(node):
            for inner in g.node:
                for name in inner.input:
                    if is_float(name):
                        uses.setdefault(name, []).append((None, -1, False))

    def needs_half(name):  # a float16 user: a graph output, a subgraph or a float16-capable input
        return name in graph_outputs or any(not only for _, _, only in uses.get(name, []))

    def note_kept(name):
        for node, i, _ in uses.get(name, []):
            schema = schema_of(node, opsets)
            key = f"{node.op_type}.{formal_name(schema, schema.inputs, i)}"
            stats.kept[key] = stats.kept.get(key, 0) + 1

    # Float32 constants read only by float32-only inputs stay as they are.
    keep32 = set()
    for name in list(inits) + [o for n in graph.node if n.op_type in (
            "Constant", "ConstantOfShape", "Cast") for o in n.output[:1]]:
        if is_float(name) and name in uses and not needs_half(name):
            keep32.add(name)
            note_kept(name)

    # Initializers.
    for i, t in enumerate(graph.initializer):
        if t.data_type == F32 and t.name not in keep32:
            graph.initializer[i].CopyFrom(half_tensor(t))

    # Nodes, with Casts to float32 before float32-only inputs and back to float16 after
    # float32-only outputs.
    as_float32 = {}  # float16 value -> its float32 copy (one Cast per value)
    new_nodes = []
    for node in graph.node:
        schema = schema_of(node, opsets)
        for i, name in enumerate(node.input):
            if not is_float(name) or name in keep32:
                continue
            if float32_only(schema, schema.inputs if schema else [], i):
                if name not in as_float32:
                    as_float32[name] = unique(name + "_float32", taken)
                    new_nodes.append(helper.make_node(
                        "Cast", [name], [as_float32[name]], to=F32,
                        name=unique(name + "_to_float32", taken)))
                    stats.casts_inserted += 1
                node.input[i] = as_float32[name]
        convert_node(node, keep32)
        for g in subgraphs(node):
            convert_graph(g, types, opsets, taken)
        new_nodes.append(node)
        for i, name in enumerate(node.output):
            if is_float(name) and float32_only(schema, schema.outputs if schema else [], i):
                if not needs_half(name):
                    keep32.add(name)  # every user takes float32
                    continue
                single = unique(name + "_float32", taken)
                node.output[i] = single
                for user, j, only in uses.get(name, []):
                    if only:
                        user.input[j] = single
                new_nodes.append(helper.make_node("Cast", [single], [name], to=F16,
                                                  name=unique(name + "_to_float16", taken)))
                stats.casts_inserted += 1
    del graph.node[:]
    graph.node.extend(new_nodes)

    # Declared types: inputs, outputs and value_info that were float32.
    for vi in list(graph.input) + list(graph.output) + list(graph.value_info):
        tt = vi.type.tensor_type
        if vi.type.HasField("tensor_type") and tt.elem_type == F32 and vi.name not in keep32:
            tt.elem_type = F16


def convert_node(node, keep32):
    keep = bool(node.output) and node.output[0] in keep32
    attrs = {a.name: a for a in node.attribute}
    if node.op_type == "Cast" and "to" in attrs and attrs["to"].i == F32 and not keep:
        attrs["to"].i = F16
        stats.casts_retargeted += 1
    elif node.op_type == "Constant" and not keep:
        for a in node.attribute:
            if a.name == "value" and a.t.data_type == F32:
                a.t.CopyFrom(half_tensor(a.t))
            elif a.name in ("value_float", "value_floats"):  # float attribute -> float16 tensor
                values = np.array(a.f if a.name == "value_float" else list(a.floats), np.float32)
                node.attribute.remove(a)
                node.attribute.append(helper.make_attribute(
                    "value", numpy_helper.from_array(to_half(values), "")))
                break
    elif node.op_type == "ConstantOfShape" and not keep:
        if "value" not in attrs:  # the default is float32 zero
            node.attribute.append(helper.make_attribute(
                "value", numpy_helper.from_array(np.zeros(1, np.float16), "")))
        elif attrs["value"].t.data_type == F32:
            attrs["value"].t.CopyFrom(half_tensor(attrs["value"].t))
    if "dtype" in attrs and attrs["dtype"].i == F32 and not keep:
        attrs["dtype"].i = F16  # RandomNormal, RandomUniform, EyeLike, ...
    elif node.op_type in ("RandomNormal", "RandomUniform") and "dtype" not in attrs:
        node.attribute.append(helper.make_attribute("dtype", F16))  # their default is float32


# --- Checking ------------------------------------------------------------------------------------
def too_new(model):
    """Why the installed onnx cannot check the model ('' when it can)."""
    opset = max((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), default=0)
    if model.ir_version > onnx.IR_VERSION or opset > defs.onnx_opset_version():
        return (f"IR version {model.ir_version} / opset {opset} is newer than the installed onnx "
                f"{onnx.__version__} knows (IR {onnx.IR_VERSION}, opset "
                f"{defs.onnx_opset_version()})")
    return ""


def check(model):
    """'' when full_check passes, else the error text."""
    try:
        onnx.checker.check_model(model, full_check=True)
        return ""
    except Exception as e:
        return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__


def all_names(graph, taken):
    for vi in list(graph.input) + list(graph.output) + list(graph.value_info):
        taken.add(vi.name)
    for t in graph.initializer:
        taken.add(t.name)
    for node in graph.node:
        taken.update(node.input)
        taken.update(node.output)
        taken.add(node.name)
        for g in subgraphs(node):
            all_names(g, taken)


def main(argv):
    if len(argv) != 3:
        print(f"usage: {argv[0]} IN.onnx OUT.onnx", file=sys.stderr)
        return 2
    source, target = argv[1], argv[2]
    external = any(t.data_location == TensorProto.EXTERNAL
                   for t in onnx.load(source, load_external_data=False).graph.initializer)
    model = onnx.load(source)  # with its external data
    opsets = {("" if o.domain == "ai.onnx" else o.domain): o.version for o in model.opset_import}
    unchecked = too_new(model)

    fold_batchnorms(model.graph)
    types = value_types(model, opsets)
    taken = set()
    all_names(model.graph, taken)
    convert_graph(model.graph, types, opsets, taken)

    # The check (full_check: also strict shape inference); a failure counts only where the input
    # model passes the same check.
    checked = f"not checked: {unchecked}" if unchecked else "checker + shape inference ok"
    output_check = "" if unchecked else check(model)
    if output_check:
        input_check = check(onnx.load(source))
        if not input_check:
            print(f"to_float16: {target} fails the checker: {output_check}", file=sys.stderr)
            return 1
        checked = f"not checked: the input model fails the checker too ({input_check})"

    # Write (weights beside it when the input had them beside it).
    if external:
        data = os.path.basename(target) + ".data"
        if os.path.exists(target + ".data"):
            os.remove(target + ".data")  # onnx appends to an existing file
        onnx.save_model(model, target, save_as_external_data=True, all_tensors_to_one_file=True,
                        location=data, size_threshold=1024)
    else:
        onnx.save_model(model, target)

    folded = f"{stats.batchnorms} BatchNormalization rewritten to fit float16, " \
        if stats.batchnorms else ""
    size = lambda path: sum(os.path.getsize(f) for f in (path, path + ".data") if os.path.exists(f))
    kept = ", ".join(f"{k} x{v}" for k, v in sorted(stats.kept.items())) or "none"
    unknown = (f"; no schema here for {', '.join(sorted(stats.unknown_ops))}"
               if stats.unknown_ops else "")
    print(f"to_float16: {os.path.basename(source)} -> {target}: {stats.tensors} tensors "
          f"({stats.elements} values; files {size(source) / 2**20:.2f} -> "
          f"{size(target) / 2**20:.2f} MiB) to float16, {folded}{stats.clamped} values clamped to "
          f"+-65504, {stats.flushed} nonzero values became 0; {stats.casts_retargeted} "
          f"Cast(to=FLOAT) -> FLOAT16, {stats.casts_inserted} Casts inserted; constants kept "
          f"float32: {kept}{unknown}; {checked}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
