"""The API from Python: contexts, builders, every kind of parameter, numpy in and out, errors."""
import numpy as np
import pytest

import webnn


@pytest.fixture(params=["cpu", "reference"])
def context(request):
    if request.param not in webnn.available_backends():
        pytest.skip(f"no {request.param} backend in this build")
    return webnn.ml.create_context(request.param)


def f32(shape):
    return {"dataType": "float32", "shape": list(shape)}


def test_a_graph_computes_on_numpy_arrays(context):
    builder = webnn.MLGraphBuilder(context)
    x = builder.input("x", f32([2, 3]))
    w = builder.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
    graph = builder.build({"y": builder.relu(builder.sub(builder.matmul(x, w), builder.constant("float32", 20)))})
    x_value = np.array([[1, 2, 3], [-1, 0, 1]], np.float32)
    y = graph.compute({"x": x_value})["y"]
    expected = np.maximum(x_value @ np.arange(12, dtype=np.float32).reshape(3, 4) - 20, 0)
    assert y.dtype == np.float32 and y.shape == (2, 4)
    np.testing.assert_allclose(y, expected, rtol=1e-6)


def test_options_by_python_name_spec_name_or_dict(context):
    builder = webnn.MLGraphBuilder(context)
    x = builder.input("x", {"dataType": np.float32, "shape": [1, 4, 4, 1]})
    w = builder.constant(np.ones((1, 3, 3, 1), np.float32))  # ohwi
    a = builder.conv2d(x, w, input_layout="nhwc", filter_layout="ohwi", padding=[1, 1, 1, 1])
    b = builder.conv2d(x, w, inputLayout="nhwc", filterLayout="ohwi", padding=[1, 1, 1, 1])
    c = builder.conv2d(x, w, {"inputLayout": "nhwc", "filter_layout": "ohwi", "padding": [1, 1, 1, 1]})
    d = builder.conv2d(x, w, options={"input_layout": "nhwc", "filterLayout": "ohwi"})
    assert a.shape == b.shape == c.shape == [1, 4, 4, 1]
    assert d.shape == [1, 2, 2, 1]
    out = builder.build({"a": a, "b": b, "c": c}).compute({"x": np.ones((1, 4, 4, 1), np.float32)})
    np.testing.assert_array_equal(out["a"], out["b"])
    np.testing.assert_array_equal(out["a"], out["c"])
    assert out["a"][0, 0, 0, 0] == 4 and out["a"][0, 1, 1, 0] == 9


def test_parameters_by_keyword_and_sequences_back_as_lists(context):
    builder = webnn.MLGraphBuilder(context)
    x = builder.input("x", f32([2, 6]))
    parts = builder.split(x, [2, 4], axis=1)
    thirds = builder.split(input=x, splits=3, axis=1)
    soft = builder.softmax(x, axis=1)
    reduced = builder.reduce_sum(x, axes=[1], keep_dimensions=True)
    assert [p.shape for p in parts] == [[2, 2], [2, 4]]
    assert len(thirds) == 3
    graph = builder.build({"p": parts[1], "s": soft, "r": reduced})
    value = np.arange(12, dtype=np.float32).reshape(2, 6)
    out = graph.compute({"x": value})
    np.testing.assert_array_equal(out["p"], value[:, 2:])
    np.testing.assert_allclose(out["s"].sum(axis=1), [1, 1], rtol=1e-6)
    np.testing.assert_array_equal(out["r"], value.sum(axis=1, keepdims=True))


def test_every_data_type_numpy_has_round_trips(context):
    for dtype in [np.float32, np.float16, np.int32, np.uint32, np.int64, np.uint64, np.int8, np.uint8]:
        builder = webnn.MLGraphBuilder(context)
        x = builder.input("x", {"dataType": dtype, "shape": [3]})
        limits = context.op_support_limits()
        if np.dtype(dtype).name not in limits["identity"]["input"]["dataTypes"]:
            continue
        graph = builder.build({"y": builder.identity(x)})
        value = np.array([1, 2, 3], dtype)
        y = graph.compute({"x": value})["y"]
        assert y.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(y, value)


def test_float16_is_numpy_float16(context):
    builder = webnn.MLGraphBuilder(context)
    x = builder.input("x", {"dataType": "float16", "shape": [4]})
    graph = builder.build({"y": builder.mul(x, builder.constant("float16", 0.5))})
    y = graph.compute({"x": np.array([1, 2, 3, 65504], np.float16)})["y"]
    assert y.dtype == np.float16
    np.testing.assert_array_equal(y, np.array([0.5, 1, 1.5, 32752], np.float16))


def test_tensors_written_from_and_read_into_buffers(context):
    builder = webnn.MLGraphBuilder(context)
    x = builder.input("x", f32([2, 2]))
    graph = builder.build({"y": builder.neg(x)})
    tx = context.create_tensor({"dataType": "float32", "shape": [2, 2], "writable": True})
    ty = context.create_tensor({"dataType": "float32", "shape": [2, 2], "readable": True})
    assert tx.shape == [2, 2] and tx.writable and not tx.readable and tx.byte_length == 16
    context.write_tensor(tx, memoryview(np.array([1, 2, 3, 4], np.float32).tobytes()))
    context.dispatch(graph, {"x": tx}, {"y": ty})
    np.testing.assert_array_equal(context.read_tensor(ty), [[-1, -2], [-3, -4]])
    out = np.zeros(4, np.float32)
    assert context.read_tensor(ty, out) is out
    np.testing.assert_array_equal(out, [-1, -2, -3, -4])
    with pytest.raises(TypeError):
        context.read_tensor(ty, np.zeros(4, np.float32)[::2])  # not contiguous


def test_errors_are_the_specs(context):
    builder = webnn.MLGraphBuilder(context)
    x = builder.input("x", f32([2, 3]))
    with pytest.raises(TypeError, match="matmul"):
        builder.matmul(x, x)  # shapes do not agree
    with pytest.raises(TypeError, match="unexpected keyword argument 'strides'"):
        builder.relu(x, strides=[1])
    with pytest.raises(TypeError, match="'nchw', 'nhwc'"):
        builder.instance_normalization(x, layout="chwn")
    with pytest.raises(TypeError, match="missing required argument 'axis'"):
        builder.softmax(x)
    with pytest.raises(TypeError, match="relu\\(\\): input must be an MLOperand"):
        builder.relu(np.zeros(3, np.float32))
    with pytest.raises(TypeError, match=r"concat\(\): inputs\[1\] must be an MLOperand"):
        builder.concat([x, "x"], 0)
    with pytest.raises(TypeError, match="not an MLOperandDataType"):
        builder.input("y", {"dataType": "float8", "shape": [1]})
    with pytest.raises(TypeError, match="float64"):
        builder.input("y", {"dataType": np.float64, "shape": [1]})
    graph = builder.build({"y": builder.relu(x)})
    with pytest.raises(TypeError, match="int32 \\[2, 3\\]; the graph takes float32 \\[2, 3\\]"):
        graph.compute({"x": np.zeros((2, 3), np.int32)})
    with pytest.raises(TypeError, match="'x' is missing"):
        graph.compute({})
    with pytest.raises(webnn.InvalidStateError):
        builder.relu(x)  # built: the builder is spent
    assert issubclass(webnn.DataError, webnn.WebNNError)
    graph.destroy()
    with pytest.raises(webnn.InvalidStateError):
        graph.compute({"x": np.zeros((2, 3), np.float32)})


def test_an_unknown_keyword_is_refused_before_the_builder_runs(context):
    builder = webnn.MLGraphBuilder(context)
    x = builder.input("x", f32([2, 3]))
    # Axis 5 alone is the builder's TypeError; with an unknown keyword the binding refuses first,
    # so no operation is added.
    with pytest.raises(TypeError, match="axis"):
        builder.softmax(x, 5)
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        builder.softmax(x, 5, bogus=1)


def test_limits_memory_and_descriptors(context):
    limits = context.op_support_limits()
    assert "float32" in limits["conv2d"]["input"]["dataTypes"]
    assert limits["preferredInputLayout"] in ("nchw", "nhwc")
    builder = webnn.MLGraphBuilder(context)
    x = builder.input("x", f32([1, 2]))
    graph = builder.build({"y": builder.abs(x)})
    assert graph.input_descriptors == {"x": {"dataType": "float32", "shape": [1, 2]}}
    assert graph.output_descriptors == {"y": {"dataType": "float32", "shape": [1, 2]}}
    assert set(context.memory_stats()) >= {"constantBytes", "activationBytes", "stagingBytes"}
