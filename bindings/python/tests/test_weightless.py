"""The proposal from Python: hollow constants filled after build() from any buffer (copied once),
by chunks, or pulled from a file without the GIL; and its error cases."""
import json
import struct
import threading

import numpy as np
import pytest

import webnn


def write_safetensors(path, tensors):
    header, offset, blobs = {}, 0, []
    for name, array in tensors.items():
        data = np.ascontiguousarray(array).tobytes()
        dtype = {np.dtype(np.float32): "F32", np.dtype(np.float16): "F16"}[array.dtype]
        header[name] = {"dtype": dtype, "shape": list(array.shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    encoded = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(encoded)) + encoded + b"".join(blobs))


def mlp(context, hidden=8):
    builder = webnn.MLGraphBuilder(context)
    x = builder.input("x", {"dataType": "float32", "shape": [1, 4]})
    w1 = builder.constant({"dataType": "float32", "shape": [4, hidden]}, label="fc1.weight")
    w2 = builder.constant({"dataType": "float32", "shape": [hidden, 3]}, label="fc2.weight")
    return builder.build({"y": builder.matmul(builder.relu(builder.matmul(x, w1)), w2)})


W1 = (np.arange(32, dtype=np.float32).reshape(4, 8) % 5 - 2) / 4
W2 = (np.arange(24, dtype=np.float32).reshape(8, 3) % 3 - 1) / 2
X = np.array([[1, 2, 3, 4]], np.float32)
EXPECTED = np.maximum(X @ W1, 0) @ W2


@pytest.fixture
def context():
    return webnn.ml.create_context()


def test_set_and_write_from_arrays_memoryviews_and_memmap_slices(context, tmp_path):
    graph = mlp(context)
    assert [c.label for c in graph.pending_constants()] == ["fc1.weight", "fc2.weight"]
    fc1, fc2 = graph.pending_constants()
    assert fc1.is_constant and fc1.shape == [4, 8]
    graph.set_constant_data(fc1, W1)
    # fc2 in two chunks, the second first, from a memory-mapped file's slices.
    path = tmp_path / "fc2.bin"
    W2.tofile(path)
    mapped = np.memmap(path, dtype=np.uint8, mode="r")
    graph.write_constant_data(fc2, 48, mapped[48:])
    assert [c.label for c in graph.pending_constants()] == ["fc2.weight"]
    graph.write_constant_data(fc2, 0, memoryview(mapped[:48]))
    assert graph.pending_constants() == []
    np.testing.assert_allclose(graph.compute({"x": X})["y"], EXPECTED, rtol=1e-6)


def test_load_constants_with_names_and_progress(context, tmp_path):
    path = tmp_path / "mlp.safetensors"
    write_safetensors(path, {"a": W1, "b": W2})
    graph = mlp(context)
    progress = []
    graph.load_constants(str(path), names={"fc1.weight": "a", "fc2.weight": "b"},
                         on_progress=lambda done, total: progress.append((done, total)))
    assert graph.pending_constants() == []
    assert progress and progress[-1] == (W1.nbytes + W2.nbytes,) * 2
    assert all(a[0] <= b[0] for a, b in zip(progress, progress[1:]))
    np.testing.assert_allclose(graph.compute({"x": X})["y"], EXPECTED, rtol=1e-6)
    # A function of the label, and a WeightSource (a path-like opened once, shared).
    other = mlp(context)
    source = webnn.WeightSource.open(path)
    assert source.format_name == "safetensors" and source.tensor_names == ["a", "b"]
    other.load_constants(source, names=lambda label: {"fc1.weight": "a"}.get(label, "b"))
    np.testing.assert_allclose(other.compute({"x": X})["y"], EXPECTED, rtol=1e-6)


def test_load_constants_releases_the_gil(context, tmp_path):
    path = tmp_path / "big.safetensors"
    hidden = 1 << 16  # 2 x 1 MiB + 0.75 MiB
    write_safetensors(path, {"fc1.weight": np.ones((4, hidden), np.float32),
                             "fc2.weight": np.ones((hidden, 3), np.float32)})
    graph = mlp(context, hidden)
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.0005)

    ticker = threading.Thread(target=count)
    ticker.start()
    # Progress calls take the GIL back from the loading threads.
    graph.load_constants(path, on_progress=lambda done, total: None)
    stop.set()
    ticker.join()
    assert graph.pending_constants() == []
    assert ticks


def test_the_proposals_error_cases(context, tmp_path):
    graph = mlp(context)
    fc1, fc2 = graph.pending_constants()
    with pytest.raises(webnn.InvalidStateError, match="fc1.weight"):
        graph.compute({"x": X})  # constants without data
    with pytest.raises(TypeError):
        graph.set_constant_data(fc1, np.zeros(3, np.float32))  # the wrong size
    with pytest.raises(TypeError):
        graph.write_constant_data(fc1, 120, np.zeros(4, np.float32))  # past the end
    with pytest.raises(TypeError, match="buffer"):
        graph.set_constant_data(fc1, [1.0] * 32)  # a list is not a buffer
    assert len(graph.pending_constants()) == 2  # nothing changed
    path = tmp_path / "half.safetensors"
    write_safetensors(path, {"fc1.weight": W1})
    with pytest.raises(TypeError, match="fc2.weight"):
        graph.load_constants(path)  # fc2.weight is not in the file
    assert [c.label for c in graph.pending_constants()] == ["fc2.weight"]
    graph.load_constants(path, require_all=False)  # nothing left to find: no error

    def failing(done, total):
        raise RuntimeError("stop here")

    graph = mlp(context)
    write_safetensors(path, {"fc1.weight": W1, "fc2.weight": W2})
    with pytest.raises(RuntimeError, match="stop here"):
        graph.load_constants(path, on_progress=failing)
    with pytest.raises(webnn.OperationError, match="cannot open"):
        webnn.WeightSource.open(tmp_path / "half.safetensors.missing")
    (tmp_path / "junk.safetensors").write_bytes(b"\xff" * 64)
    with pytest.raises(webnn.DataError, match="junk.safetensors"):
        webnn.WeightSource.open(tmp_path / "junk.safetensors")
