"""ONNX models from Python: webnn.onnx.load / load_graph (weightless, the weights streamed from the
model file) and the ONNX Runtime-shaped InferenceSession, on a model written here with onnx."""
import numpy as np
import pytest

import webnn

onnx = pytest.importorskip("onnx")
if not webnn._webnn.HAVE_ONNX:
    pytest.skip("this build has no ONNX importer", allow_module_level=True)
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

RNG = np.random.default_rng(7)
W = RNG.standard_normal((4, 2, 3, 3)).astype(np.float32)
B = RNG.standard_normal(4).astype(np.float32)
M = RNG.standard_normal((4 * 4 * 4, 5)).astype(np.float32)


def make_model(path):
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("Flatten", ["r"], ["f"], axis=1),
        helper.make_node("MatMul", ["f", "m"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "small",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 2, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 5])],
        [numpy_helper.from_array(W, "w"), numpy_helper.from_array(B, "b"), numpy_helper.from_array(M, "m")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="test")
    model.ir_version = 8
    onnx.save(model, path)


def reference(x):
    n = x.shape[0]
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    c = np.zeros((n, 4, 4, 4), np.float32)
    for i in range(4):
        for j in range(4):
            patch = padded[:, :, 2 * i:2 * i + 3, 2 * j:2 * j + 3]
            c[:, :, i, j] = np.einsum("nchw,ochw->no", patch, W) + B
    return np.maximum(c, 0).reshape(n, -1) @ M


@pytest.fixture
def model_path(tmp_path):
    path = str(tmp_path / "small.onnx")
    make_model(path)
    return path


def test_an_inference_session_runs_like_onnx_runtime(model_path):
    session = webnn.InferenceSession(model_path, providers=["CPUExecutionProvider"],
                                     dimensions={"batch": 2})
    assert [(i.name, i.shape, i.type) for i in session.get_inputs()] == [("x", [2, 2, 8, 8], "tensor(float)")]
    assert [o.name for o in session.get_outputs()] == ["y"]
    x = RNG.standard_normal((2, 2, 8, 8)).astype(np.float32)
    (y,) = session.run(None, {"x": x})
    np.testing.assert_allclose(y, reference(x), rtol=1e-4, atol=1e-4)
    (y_again,) = session.run(["y"], {"x": x})
    np.testing.assert_array_equal(y, y_again)
    with pytest.raises(TypeError, match="no output z"):
        session.run(["z"], {"x": x})


def test_load_is_weightless_until_the_weights_stream_in(model_path):
    context = webnn.ml.create_context()
    builder = webnn.MLGraphBuilder(context)
    model = webnn.onnx.load(model_path, builder, input_shapes={"x": [1, 2, 8, 8]})
    assert model.opset_version == 17 and model.producer == "test"
    assert model.weight_count == 3 and model.weight_bytes == W.nbytes + B.nbytes + M.nbytes
    assert model.inputs == [("x", {"dataType": "float32", "shape": [1, 2, 8, 8]})]
    graph = builder.build(model.output_operands)
    assert sorted(c.label for c in graph.pending_constants()) == ["b", "m", "w"]
    graph.load_constants(model.weights)
    assert graph.pending_constants() == []
    x = RNG.standard_normal((1, 2, 8, 8)).astype(np.float32)
    np.testing.assert_allclose(graph.compute({"x": x})["y"], reference(x), rtol=1e-4, atol=1e-4)


def test_a_model_that_is_no_model_is_a_data_error(tmp_path):
    path = tmp_path / "junk.onnx"
    path.write_bytes(b"\x0a\xff\xff\xff\xff\x0f")
    with pytest.raises(webnn.DataError):
        webnn.InferenceSession(str(path))


def make_nbits_model(path, accuracy_level):
    """One com.microsoft MatMulNBits: x [1, 64] times 8 columns of 4-bit weights in blocks of 32."""
    weights = (np.arange(8 * 2 * 16) * 37 % 256).astype(np.uint8).reshape(8, 2, 16)
    node = helper.make_node("MatMulNBits", ["x", "B", "scales"], ["y"], domain="com.microsoft",
                            K=64, N=8, bits=4, block_size=32, accuracy_level=accuracy_level)
    graph = helper.make_graph(
        [node], "nbits",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8])],
        [numpy_helper.from_array(weights, "B"),
         numpy_helper.from_array(np.full(16, 0.05, np.float32), "scales")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 8
    onnx.save(model, path)


def test_a_session_follows_the_models_accuracy_level_for_four_bit_products(tmp_path, model_path):
    if "cpu" not in webnn.available_backends():
        pytest.skip("int8 activations are the cpu backend's")
    asks_int8, asks_float = str(tmp_path / "acc4.onnx"), str(tmp_path / "acc0.onnx")
    make_nbits_model(asks_int8, 4)
    make_nbits_model(asks_float, 0)
    summary = webnn.onnx.summarize(asks_int8)
    assert summary["block_quantized_matmuls"] == 1 and summary["int8_accuracy_matmuls"] == 1
    assert summary["allows_int8_activations"]
    assert not webnn.onnx.summarize(asks_float)["allows_int8_activations"]
    assert webnn.onnx.summarize(model_path)["block_quantized_matmuls"] == 0

    def step(path, **options):
        session = webnn.InferenceSession(path, backend="cpu", **options)
        (only,) = session._graph.implementations()
        return only["implementation"]

    assert "int8 activations" in step(asks_int8)
    assert "int8 activations" not in step(asks_float)
    assert "int8 activations" not in step(asks_int8, int8_activations=False)
    assert "int8 activations" in step(asks_float, int8_activations=True)
