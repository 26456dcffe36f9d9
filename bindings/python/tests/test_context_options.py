"""The context's and the load's extension options from Python: int8 activations for 4-bit
products, a memory budget with mapped weights, reloads, and the load's limits."""
import json
import struct

import numpy as np
import pytest

import webnn

N, BLOCKS, BLOCK, ROWS = 24, 3, 32, 5
K = BLOCKS * BLOCK


def write_safetensors(path, tensors):
    header, offset, blobs = {}, 0, []
    for name, array in tensors.items():
        data = np.ascontiguousarray(array).tobytes()
        header[name] = {"dtype": "F32", "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    encoded = json.dumps(header).encode()
    # Tensors at 64-byte offsets, as writers align them: a map needs each at its element size.
    encoded += b" " * (-(8 + len(encoded)) % 64)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(encoded)) + encoded + b"".join(blobs))


def four_bit_layer(context):
    """MatMulNBits as the ONNX importer writes it: int4 weights in blocks of 32 along K, a scale
    and a zero point per block, then matmul and a bias."""
    b = webnn.MLGraphBuilder(context)
    weights = b.constant({"dataType": "int4", "shape": [N, BLOCKS, BLOCK]}, label="w")
    scales = b.constant({"dataType": "float32", "shape": [N * BLOCKS]}, label="s")
    zero_points = b.constant({"dataType": "int4", "shape": [N * BLOCKS]}, label="z")
    bias = b.constant({"dataType": "float32", "shape": [N]}, label="b")
    dequantized = b.dequantize_linear(weights, b.reshape(scales, [N, BLOCKS, 1]),
                                      b.reshape(zero_points, [N, BLOCKS, 1]))
    x = b.input("x", {"dataType": "float32", "shape": [1, ROWS, K]})
    y = b.add(b.matmul(x, b.transpose(b.reshape(dequantized, [N, K]))), bias)
    graph = b.build({"y": y})
    graph.set_constant_data(weights, (np.arange(N * K // 2) * 73 % 256).astype(np.uint8))
    graph.set_constant_data(zero_points, (np.arange(N * BLOCKS // 2) * 29 % 256).astype(np.uint8))
    graph.set_constant_data(scales, (0.01 * (np.arange(N * BLOCKS) % 7 + 1)).astype(np.float32))
    graph.set_constant_data(bias, (0.5 * np.arange(N) - 3).astype(np.float32))
    return graph


def test_int8_activations_for_four_bit_products_on_request():
    x = np.sin(np.arange(ROWS * K, dtype=np.float32)).reshape(1, ROWS, K)
    reference = four_bit_layer(webnn.ml.create_context("reference")).compute({"x": x})["y"]
    outputs = {}
    for int8 in (False, True):
        context = webnn.ml.create_context("cpu", block_quantized_int8_activations=int8)
        graph = four_bit_layer(context)
        (step,) = graph.implementations()
        assert ("int8 activations" in step["implementation"]) == int8, step
        outputs[int8] = graph.compute({"x": x})["y"]
    np.testing.assert_allclose(outputs[False], reference, rtol=1e-4, atol=1e-4)
    error = np.linalg.norm(outputs[True] - reference) / np.linalg.norm(reference)
    assert 0 < error < 2e-2  # the activations' rounding, nothing else


def mlp(context, dim=64):
    b = webnn.MLGraphBuilder(context)
    x = b.input("x", {"dataType": "float32", "shape": [1, dim]})
    w1 = b.constant({"dataType": "float32", "shape": [dim, dim]}, label="w1")
    w2 = b.constant({"dataType": "float32", "shape": [dim, dim]}, label="w2")
    return b.build({"y": b.matmul(b.relu(b.matmul(x, w1)), w2)})


def weights(seed, dim=64):
    rng = np.random.default_rng(seed)
    return {name: rng.standard_normal((dim, dim)).astype(np.float32) / 8 for name in ("w1", "w2")}


def expected(x, w):
    return np.maximum(x @ w["w1"], 0) @ w["w2"]


def test_a_memory_budget_leaves_the_weights_beyond_it_mapped_from_the_file(tmp_path):
    path = tmp_path / "mlp.safetensors"
    w = weights(1)
    write_safetensors(path, w)
    x = np.linspace(-1, 1, 64, dtype=np.float32).reshape(1, 64)
    mapped = {}
    for budget in (0, 16 * 1024):  # one 16 KiB matrix fits; the other stays the file's
        context = webnn.ml.create_context("cpu", constant_memory_budget=budget)
        graph = mlp(context)
        graph.load_constants(str(path), allow_mapping=True)
        mapped[budget] = context.memory_stats()["mappedConstantBytes"]
        np.testing.assert_allclose(graph.compute({"x": x})["y"], expected(x, w), rtol=1e-4,
                                   atol=1e-5)
    assert mapped[0] == 0
    assert mapped[16 * 1024] >= 64 * 64 * 4


def test_reload_fills_a_complete_graph_with_another_weight_set(tmp_path):
    first, second = tmp_path / "first.safetensors", tmp_path / "second.safetensors"
    write_safetensors(first, weights(2))
    write_safetensors(second, weights(3))
    x = np.ones((1, 64), np.float32)
    context = webnn.ml.create_context("cpu")
    graph = mlp(context)
    graph.load_constants(str(first))
    graph.load_constants(str(second))  # nothing pending: nothing read
    np.testing.assert_allclose(graph.compute({"x": x})["y"], expected(x, weights(2)), rtol=1e-4,
                               atol=1e-5)
    graph.load_constants(str(second), reload=True)
    np.testing.assert_allclose(graph.compute({"x": x})["y"], expected(x, weights(3)), rtol=1e-4,
                               atol=1e-5)


def test_load_limits_are_checked_before_a_byte_is_read(tmp_path):
    path = tmp_path / "mlp.safetensors"
    write_safetensors(path, weights(4))
    context = webnn.ml.create_context("cpu")
    graph = mlp(context)
    with pytest.raises(TypeError, match="w1"):
        graph.load_constants(str(path), max_tensor_bytes=64 * 64 * 4 - 1)
    with pytest.raises(TypeError):
        graph.load_constants(str(path), max_total_bytes=2 * 64 * 64 * 4 - 1)
    assert [c.label for c in graph.pending_constants()] == ["w1", "w2"]
    graph.load_constants(str(path), max_tensor_bytes=64 * 64 * 4, max_total_bytes=2 * 64 * 64 * 4)
    assert graph.pending_constants() == []
    # The same keywords on MLContext.load_constants, for constant tensors.
    tensor = context.create_constant_tensor({"dataType": "float32", "shape": [64, 64]},
                                            label="w1")
    with pytest.raises(TypeError, match="w1"):
        context.load_constants([tensor], str(path), max_tensor_bytes=100)
    assert not tensor.constant_complete
    context.load_constants([tensor], str(path), require_all=False, allow_mapping=True,
                           threads=1)
    assert tensor.constant_complete


def test_the_options_reject_values_of_the_wrong_type():
    with pytest.raises(TypeError):
        webnn.ml.create_context("cpu", constant_memory_budget=-1)
    with pytest.raises(TypeError):
        webnn.ml.create_context("cpu", block_quantized_int8_activations="yes")
