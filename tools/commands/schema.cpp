// webnn schema: the op schema (webnn/op_schema.h) as text: every op with its parameters, the
// TypeScript declarations of the Node.js binding (--typescript) or the Python binding's stubs
// (--python), checked against or written into a file's generated regions (a .pyi file takes the
// Python stubs, any other the TypeScript declarations).
#include <webnn/op_schema.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>

#include "command.h"
#include "npy.h"
#include "schema/python_stubs.h"
#include "schema/typescript.h"

namespace {

struct SchemaOptions {
  bool typescript = false, python = false;
  std::string check, update;
};

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw webnn::Error(webnn::Error::Kind::DataError, path + ": cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool isPythonStub(const std::string& path) {
  return path.size() >= 4 && path.compare(path.size() - 4, 4, ".pyi") == 0;
}

// The file's text with its generated regions written from the schema.
std::string regenerated(const std::string& path, const std::string& text) {
  if (isPythonStub(path)) {
    auto methods = webnn::tools::replaceGeneratedRegion(text, "MLGraphBuilder operations",
                                                        webnn::tools::pythonBuilderMethods(), "#");
    if (!methods) {
      throw webnn::Error(webnn::Error::Kind::DataError,
                         path + ": no '# BEGIN generated: MLGraphBuilder operations' region");
    }
    return *methods;
  }
  auto types = webnn::tools::replaceGeneratedRegion(text, "types", webnn::tools::typescriptTypes());
  if (!types) {
    throw webnn::Error(webnn::Error::Kind::DataError,
                       path + ": no '// BEGIN generated: types' ... '// END generated: types'");
  }
  auto methods = webnn::tools::replaceGeneratedRegion(*types, "MLGraphBuilder operations",
                                                      webnn::tools::typescriptBuilderMethods());
  if (!methods) {
    throw webnn::Error(webnn::Error::Kind::DataError,
                       path + ": no '// BEGIN generated: MLGraphBuilder operations' region");
  }
  return *methods;
}

int runSchema(const SchemaOptions& o) {
  if (!o.check.empty() || !o.update.empty()) {
    const std::string& path = o.check.empty() ? o.update : o.check;
    const std::string text = readFile(path);
    const std::string fresh = regenerated(path, text);
    if (!o.update.empty()) {
      if (fresh != text) {
        const auto* bytes = reinterpret_cast<const std::byte*>(fresh.data());
        webnn::tools::writeFileChecked(path, {{bytes, fresh.size()}});
      }
      std::printf("%s: %s\n", path.c_str(), fresh == text ? "up to date" : "regions rewritten");
      return 0;
    }
    if (fresh != text) {
      std::printf(
          "%s: the generated regions differ from the op schema; run `webnn schema --update %s`\n",
          path.c_str(), path.c_str());
      return 1;
    }
    std::printf("%s: the generated regions match the op schema\n", path.c_str());
    return 0;
  }
  if (o.python) {
    std::printf("%s", webnn::tools::pythonBuilderMethods().c_str());
    return 0;
  }
  if (o.typescript) {
    std::printf("%s\n%s", webnn::tools::typescriptTypes().c_str(),
                webnn::tools::typescriptBuilderMethods().c_str());
    return 0;
  }
  size_t count = 0;
  webnn::schema::forEachOp([&](const auto& op) {
    using Op = std::remove_cvref_t<decltype(op)>;
    std::string parameters;
    for (size_t i = 0; i < Op::kArity; ++i)
      parameters += std::string(i ? ", " : "") + std::string(op.parameters[i]);
    std::printf("%-22s (%s%soptions: %s)%s\n", std::string(op.name).c_str(), parameters.c_str(),
                Op::kArity ? ", " : "",
                std::string(webnn::schema::Options<typename Op::OptionsType>::name).c_str(),
                Op::kReturnsSequence ? " -> sequence" : "");
    ++count;
  });
  std::printf("%zu operations\n", count);
  return 0;
}

}  // namespace

WEBNN_COMMAND("schema", registerSchemaCommand,
              "Print the op schema, or the TypeScript declarations and Python stubs it writes") {
  auto o = std::make_shared<SchemaOptions>();
  app.add_flag("--typescript", o->typescript, "Print the TypeScript declarations");
  app.add_flag("--python", o->python, "Print the Python binding's MLGraphBuilder method stubs");
  app.add_option(
      "--check", o->check,
      "Compare FILE's generated regions with the schema (exit status 1 when they differ)");
  app.add_option("--update", o->update, "Rewrite FILE's generated regions from the schema");
  return [o] { return runSchema(*o); };
}
