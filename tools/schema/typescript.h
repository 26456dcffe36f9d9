// TypeScript declarations of the builder's operations, written from the op schema
// (webnn/op_schema.h): the enums' string unions, the options dictionaries as interfaces, and one
// method declaration per op. bindings/node/index.d.ts holds them between generated-region
// markers; `webnn schema --typescript --update FILE` rewrites those regions, `--check` compares.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace webnn::tools {

// The top-level declarations: enum types and options interfaces.
std::string typescriptTypes();
// The MLGraphBuilder method declarations (indented two spaces).
std::string typescriptBuilderMethods();

// `text` with the lines between "// BEGIN generated: NAME" and "// END generated: NAME" (both kept,
// at any indentation; `comment` in place of "//" for another language) replaced by `content`;
// nullopt when the markers are missing or out of order.
std::optional<std::string> replaceGeneratedRegion(std::string_view text, std::string_view name,
                                                  std::string_view content,
                                                  std::string_view comment = "//");

}  // namespace webnn::tools
