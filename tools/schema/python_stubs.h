// Python type stubs of the builder's operations, written from the op schema (webnn/op_schema.h):
// one method per op under its Python name, the parameters by position or keyword, then `options`
// (a dict) and every option as a keyword, enums as Literal strings. bindings/python/webnn/
// _webnn.pyi holds them between "# BEGIN generated: MLGraphBuilder operations" and its END line;
// `webnn schema --update FILE.pyi` rewrites the region, `--check` compares.
#pragma once

#include <string>

namespace webnn::tools {

// The MLGraphBuilder method stubs (indented four spaces).
std::string pythonBuilderMethods();

}  // namespace webnn::tools
