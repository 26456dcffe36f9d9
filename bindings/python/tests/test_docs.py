"""docs/python.md's table of operations is the module's: every op of the schema, its Python name."""
import os
import re

import webnn

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "..", "docs", "python.md")


def test_the_table_lists_every_operation_with_its_python_name():
    with open(DOC, encoding="utf-8") as f:
        rows = re.findall(r"^\| `(\w+)` \| `builder\.(\w+)` \|$", f.read(), re.MULTILINE)
    assert dict(rows) == webnn._webnn.OP_NAMES
    builder = webnn.MLGraphBuilder(webnn.ml.create_context())
    for python in webnn._webnn.OP_NAMES.values():
        assert callable(getattr(builder, python))
