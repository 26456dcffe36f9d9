// A streaming JSON reader for untrusted headers: calls back once per value with the path to it, so
// that a format turns a header into TensorInfo without building a document, and rejects duplicate
// keys (which a document would silently merge).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace webnn::weights {

struct JsonPathElement {
  bool inArray = false;
  std::string key;     // when !inArray
  uint64_t index = 0;  // when inArray
};
using JsonPath = std::vector<JsonPathElement>;

struct JsonScalar {
  enum class Kind { Null, Boolean, Integer, Unsigned, Float, String };
  Kind kind = Kind::Null;
  bool boolean = false;
  int64_t integer = 0;     // Kind::Integer: negative values only
  uint64_t unsigned_ = 0;  // Kind::Unsigned: non-negative integers
  double floating = 0;
  std::string string;

  // "a string", "an integer", ... for messages.
  std::string_view kindName() const;
};

class JsonWalker {
 public:
  virtual ~JsonWalker() = default;

  // `path` leads from the root to the value (empty for the root).
  virtual void onBeginObject(const JsonPath& path) = 0;
  virtual void onBeginArray(const JsonPath& path) = 0;
  virtual void onEnd(const JsonPath& path, bool object) = 0;
  virtual void onScalar(const JsonPath& path, JsonScalar& value) = 0;

  // Parses `text`. Syntax errors, nesting deeper than 32 levels and duplicate keys throw DataError
  // "<file>: <what>: ..."; the callbacks may throw too.
  void parse(std::string_view text, const std::string& file, std::string_view what);
};

// "tensors.w.shape[2]", for messages.
std::string pathToString(const JsonPath& path);

}  // namespace webnn::weights
