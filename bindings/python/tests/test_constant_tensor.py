"""Constant tensors from Python: create_constant_tensor (with data, or hollow with a label),
builder.constant(tensor), write_constant_tensor, MLContext.load_constants; several graphs over one
tensor, and the error cases."""
import numpy as np
import pytest

import webnn
from test_weightless import write_safetensors

W = np.array([[1, 2], [3, 4]], np.float32)
X1 = np.array([[1, 1]], np.float32)
X3 = np.array([[1, 0], [0, 1], [2, -1]], np.float32)


def matmul_over(context, w, rows, bias=None):
    builder = webnn.MLGraphBuilder(context)
    x = builder.input("x", {"dataType": "float32", "shape": [rows, 2]})
    y = builder.matmul(x, builder.constant(w))
    if bias is not None:
        y = builder.add(y, builder.constant(bias))
    return builder.build({"y": y})


@pytest.fixture
def context():
    return webnn.ml.create_context()


def test_two_graphs_of_different_input_shapes_read_one_tensor(context):
    data = W.copy()
    w = context.create_constant_tensor({"dataType": "float32", "shape": [2, 2]}, data)
    assert (w.constant, w.constant_complete, w.readable, w.writable, w.label, w.byte_length) == \
        (True, True, False, False, "", 16)
    data[0, 0] = 100  # the bytes were copied at the call
    small, large = matmul_over(context, w, 1), matmul_over(context, w, 3)
    np.testing.assert_array_equal(small.compute({"x": X1})["y"], X1 @ W)
    np.testing.assert_array_equal(large.compute({"x": X3})["y"], X3 @ W)
    # From an array: its dtype and shape.
    from_array = context.create_constant_tensor(W)
    assert from_array.shape == [2, 2] and from_array.data_type == "float32"
    np.testing.assert_array_equal(matmul_over(context, from_array, 3).compute({"x": X3})["y"], X3 @ W)
    plain = context.create_tensor({"dataType": "float32", "shape": [2], "readable": True})
    assert (plain.constant, plain.constant_complete, plain.label) == (False, False, "")


def test_a_hollow_tensor_filled_by_chunks_after_build(context):
    w = context.create_constant_tensor({"dataType": "float32", "shape": [2, 2]}, label="fc.weight")
    assert (w.constant, w.constant_complete, w.label) == (True, False, "fc.weight")
    assert "not filled" in repr(w)
    small, large = matmul_over(context, w, 1), matmul_over(context, w, 3)
    assert small.pending_constants() == []  # graph constants only, not tensors
    flat = W.reshape(-1)
    context.write_constant_tensor(w, 8, flat[2:])  # the second half first
    assert not w.constant_complete
    context.write_constant_tensor(w, 0, memoryview(flat[:2].tobytes()))
    assert w.constant_complete
    np.testing.assert_array_equal(large.compute({"x": X3})["y"], X3 @ W)
    np.testing.assert_array_equal(small.compute({"x": X1})["y"], X1 @ W)
    # A graph built after the fill reads the same tensor.
    np.testing.assert_array_equal(matmul_over(context, w, 3).compute({"x": X3})["y"], X3 @ W)


def test_dispatch_before_the_fill_raises_naming_the_tensor(context):
    w = context.create_constant_tensor({"dataType": "float32", "shape": [2, 2]}, label="late.weight")
    graph = matmul_over(context, w, 1)
    with pytest.raises(webnn.InvalidStateError, match="late.weight"):
        graph.compute({"x": X1})
    x = context.create_tensor({"dataType": "float32", "shape": [1, 2], "writable": True})
    y = context.create_tensor({"dataType": "float32", "shape": [1, 2], "readable": True})
    context.write_tensor(x, X1)
    with pytest.raises(webnn.InvalidStateError, match="late.weight"):
        context.dispatch(graph, {"x": x}, {"y": y})
    context.write_constant_tensor(w, 0, W)
    context.dispatch(graph, {"x": x}, {"y": y})
    np.testing.assert_array_equal(context.read_tensor(y), X1 @ W)


def test_a_complete_tensor_refuses_a_write(context):
    filled = context.create_constant_tensor({"dataType": "float32", "shape": [2, 2]}, W)
    with pytest.raises(webnn.InvalidStateError, match="complete"):
        context.write_constant_tensor(filled, 0, W)
    w = context.create_constant_tensor({"dataType": "float32", "shape": [2, 2]}, label="w")
    with pytest.raises(TypeError, match="outside"):
        context.write_constant_tensor(w, 12, np.zeros(2, np.float32))
    assert not w.constant_complete
    context.write_constant_tensor(w, 0, W)
    with pytest.raises(webnn.InvalidStateError, match="'w'.*complete"):
        context.write_constant_tensor(w, 4, np.zeros(1, np.float32))


def test_load_constants_from_a_safetensors_file(context, tmp_path):
    path = tmp_path / "model.safetensors"
    b = np.array([10, 20], np.float32)
    write_safetensors(path, {"model.w1": W, "model.b": b})
    w = context.create_constant_tensor({"dataType": "float32", "shape": [2, 2]}, label="w1")
    bias = context.create_constant_tensor({"dataType": "float32", "shape": [2]}, label="b")
    small, large = matmul_over(context, w, 1, bias), matmul_over(context, w, 3, bias)
    progress = []
    context.load_constants([w, bias], str(path), names=lambda label: "model." + label,
                           on_progress=lambda done, total: progress.append((done, total)))
    assert w.constant_complete and bias.constant_complete
    assert progress[-1] == (24, 24)
    np.testing.assert_array_equal(small.compute({"x": X1})["y"], X1 @ W + b)
    np.testing.assert_array_equal(large.compute({"x": X3})["y"], X3 @ W + b)
    # Complete tensors are skipped; a dict of names; a WeightSource; tensors the file lacks.
    source = webnn.WeightSource.open(path)
    context.load_constants([w], source, names={"w1": "nothing"})
    missing = context.create_constant_tensor({"dataType": "float32", "shape": [2]}, label="absent")
    with pytest.raises(TypeError, match="absent"):
        context.load_constants([missing], path)
    context.load_constants([missing], path, require_all=False)
    assert not missing.constant_complete


def test_the_error_cases(context, tmp_path):
    w = context.create_constant_tensor({"dataType": "float32", "shape": [2]}, np.zeros(2, np.float32))
    with pytest.raises(TypeError, match="8 bytes"):
        context.create_constant_tensor({"dataType": "float32", "shape": [2]}, np.zeros(3, np.float32))
    builder = webnn.MLGraphBuilder(context)
    graph = builder.build({"y": builder.relu(builder.input("x", {"dataType": "float32", "shape": [2]}))})
    y = context.create_tensor({"dataType": "float32", "shape": [2], "readable": True})
    with pytest.raises(TypeError, match="constant tensor"):
        context.dispatch(graph, {"x": w}, {"y": y})
    with pytest.raises(TypeError):
        context.read_tensor(w)
    other = webnn.MLGraphBuilder(webnn.ml.create_context())
    with pytest.raises(TypeError, match="another context"):
        other.constant(w)
    with pytest.raises(TypeError, match="not a constant tensor"):
        webnn.MLGraphBuilder(context).constant(y)
    with pytest.raises(TypeError, match="no data"):
        webnn.MLGraphBuilder(context).constant(w, label="x")
    write_safetensors(tmp_path / "w.safetensors", {"w": W})
    with pytest.raises(TypeError, match="not a constant tensor"):
        context.write_constant_tensor(y, 0, np.zeros(2, np.float32))
    with pytest.raises(TypeError, match="not a constant tensor"):
        context.load_constants([y], tmp_path / "w.safetensors")
