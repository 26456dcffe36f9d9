#include "json_walker.h"

#include <nlohmann/json.hpp>
#include <unordered_set>

#include "file_reader.h"

namespace webnn::weights {
namespace {

constexpr size_t kMaxDepth = 32;

class Sax : public nlohmann::json_sax<nlohmann::json> {
 public:
  Sax(JsonWalker& walker, const std::string& file, std::string_view what)
      : walker_(walker), file_(file), what_(what) {}

  bool null() override {
    JsonScalar value;
    return scalar(value);
  }
  bool boolean(bool b) override {
    JsonScalar value;
    value.kind = JsonScalar::Kind::Boolean;
    value.boolean = b;
    return scalar(value);
  }
  bool number_integer(number_integer_t i) override {
    JsonScalar value;
    value.kind = JsonScalar::Kind::Integer;
    value.integer = i;
    return scalar(value);
  }
  bool number_unsigned(number_unsigned_t u) override {
    JsonScalar value;
    value.kind = JsonScalar::Kind::Unsigned;
    value.unsigned_ = u;
    return scalar(value);
  }
  bool number_float(number_float_t f, const string_t&) override {
    JsonScalar value;
    value.kind = JsonScalar::Kind::Float;
    value.floating = f;
    return scalar(value);
  }
  bool string(string_t& s) override {
    JsonScalar value;
    value.kind = JsonScalar::Kind::String;
    value.string = std::move(s);
    return scalar(value);
  }
  bool binary(binary_t&) override { fail("unexpected binary value"); }

  bool start_object(std::size_t) override {
    enter();
    walker_.onBeginObject(path_);
    path_.push_back(JsonPathElement{});
    keys_.emplace_back();
    return true;
  }
  bool key(string_t& key) override {
    if (!keys_.back().insert(key).second) {
      JsonPath where(path_.begin(), path_.end() - 1);
      fail("duplicate key " + quoteName(key) +
           (where.empty() ? std::string() : " in " + pathToString(where)));
    }
    path_.back().key = std::move(key);
    return true;
  }
  bool end_object() override {
    path_.pop_back();
    keys_.pop_back();
    walker_.onEnd(path_, true);
    advance();
    return true;
  }
  bool start_array(std::size_t) override {
    enter();
    walker_.onBeginArray(path_);
    JsonPathElement element;
    element.inArray = true;
    path_.push_back(std::move(element));
    keys_.emplace_back();
    return true;
  }
  bool end_array() override {
    path_.pop_back();
    keys_.pop_back();
    walker_.onEnd(path_, false);
    advance();
    return true;
  }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& error) override {
    std::string message = error.what();
    // nlohmann's messages start with "[json.exception.parse_error.101] parse error at ...".
    if (const auto bracket = message.find("] "); bracket != std::string::npos) {
      message.erase(0, bracket + 2);
    }
    fail("invalid JSON near byte " + std::to_string(position) + ": " + message);
  }

 private:
  bool scalar(JsonScalar& value) {
    walker_.onScalar(path_, value);
    advance();
    return true;
  }
  void enter() {
    if (path_.size() >= kMaxDepth) fail("JSON nested deeper than 32 levels");
  }
  void advance() {
    if (!path_.empty() && path_.back().inArray) ++path_.back().index;
  }
  [[noreturn]] void fail(const std::string& message) {
    throwDataError(file_, std::string(what_) + ": " + message);
  }

  JsonWalker& walker_;
  const std::string& file_;
  std::string_view what_;
  JsonPath path_;
  std::vector<std::unordered_set<std::string>> keys_;
};

}  // namespace

std::string_view JsonScalar::kindName() const {
  switch (kind) {
    case Kind::Null:
      return "null";
    case Kind::Boolean:
      return "a boolean";
    case Kind::Integer:
      return "a negative integer";
    case Kind::Unsigned:
      return "an integer";
    case Kind::Float:
      return "a non-integer number";
    case Kind::String:
      return "a string";
  }
  return "a value";
}

void JsonWalker::parse(std::string_view text, const std::string& file, std::string_view what) {
  Sax sax(*this, file, what);
  nlohmann::json::sax_parse(text.begin(), text.end(), &sax, nlohmann::json::input_format_t::json,
                            /*strict=*/true);
}

std::string pathToString(const JsonPath& path) {
  std::string text;
  for (const auto& element : path) {
    if (element.inArray) {
      text += "[" + std::to_string(element.index) + "]";
    } else {
      if (!text.empty()) text += ".";
      text += element.key;
    }
  }
  return text.empty() ? "the top level" : text;
}

}  // namespace webnn::weights
