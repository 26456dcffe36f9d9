"""The package's types (webnn/_webnn.pyi, written from the op schema, and the annotated modules):
mypy --strict accepts the example and the package, and refuses a wrong option value, a misspelt
option and a missing parameter. Skipped without mypy (Debian's python3-mypy)."""
import os
import subprocess
import sys
import textwrap

import pytest

import webnn

pytest.importorskip("mypy")
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(webnn.__file__)))


def mypy(*paths):
    env = {**os.environ, "MYPYPATH": PACKAGE_PARENT, "PYTHONPATH": PACKAGE_PARENT}
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", os.devnull,
                             "--no-error-summary", *paths], capture_output=True, text=True, env=env)
    return result.returncode, result.stdout + result.stderr


def test_the_example_and_the_package_type_check():
    status, output = mypy(os.path.join(ROOT, "examples", "python", "weightless_mlp.py"),
                          os.path.dirname(os.path.abspath(webnn.__file__)))
    assert status == 0, output


def test_wrong_calls_are_type_errors(tmp_path):
    source = tmp_path / "wrong.py"
    source.write_text(textwrap.dedent("""\
        import webnn
        builder = webnn.MLGraphBuilder(webnn.ml.create_context())
        x = builder.input("x", {"dataType": "float32", "shape": [1, 1, 4, 4]})
        w = builder.constant({"dataType": "float32", "shape": [1, 1, 3, 3]}, label="w")
        builder.conv2d(x, w, input_layout="nwhc")
        builder.conv2d(x, w, strid=[2, 2])
        builder.softmax(x)
        ok = builder.max_pool2d(x, window_dimensions=[2, 2], rounding_type="ceil")
        parts = builder.split(x, 2, axis=3)
        first = parts[0].shape
    """))
    status, output = mypy(str(source))
    assert status != 0
    assert "wrong.py:5:" in output and "input_layout" in output
    assert "wrong.py:6:" in output and "strid" in output
    assert "wrong.py:7:" in output and "axis" in output
    for line in (8, 9, 10):
        assert f"wrong.py:{line}:" not in output, output
