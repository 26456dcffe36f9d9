// Protobuf wire-format walking for ModelProto -> GraphProto -> {NodeProto -> AttributeProto,
// TensorProto}. Field numbers from onnx.proto: ModelProto.graph = 7; GraphProto.node = 1,
// GraphProto.initializer = 5; NodeProto.attribute = 5; AttributeProto.t = 5;
// TensorProto.float_data = 4, TensorProto.raw_data = 9.
#include "onnx/wire.h"

#include <algorithm>

#include "onnx/errors.h"

namespace webnn::onnx_import {

namespace {
constexpr uint64_t kWindowBytes = uint64_t{1} << 16;
}  // namespace

ModelBytes::ModelBytes(int fd, uint64_t size, FileReader& reader, const std::string& path)
    : fd_(fd), size_(size), reader_(reader), path_(path) {}

void ModelBytes::failRead(uint64_t offset, const std::string& why) const {
  throwDataError(path_, "reading the model at byte " + std::to_string(offset) + " failed (" + why +
                            "); was the file changed while it was imported?");
}

void ModelBytes::load(uint64_t position) {
  const uint64_t length = std::min(kWindowBytes, size_ - position);
  window_.resize(static_cast<size_t>(length));
  windowBegin_ = position;
  if (const auto failure = weights::preadExact(
          reader_, fd_, reinterpret_cast<std::byte*>(window_.data()), window_.size(), position)) {
    window_.clear();
    failRead(failure->offset, weights::describeFailure(*failure));
  }
}

uint8_t ModelBytes::at(uint64_t position) {
  if (position >= size_) failRead(position, "past the end");
  if (position < windowBegin_ || position - windowBegin_ >= window_.size()) load(position);
  return static_cast<uint8_t>(window_[static_cast<size_t>(position - windowBegin_)]);
}

void ModelBytes::append(std::string& out, uint64_t begin, uint64_t end) {
  if (begin > end || end > size_) failRead(begin, "past the end");
  if (begin >= windowBegin_ && end <= windowBegin_ + window_.size()) {
    out.append(window_, static_cast<size_t>(begin - windowBegin_),
               static_cast<size_t>(end - begin));
    return;
  }
  const size_t at = out.size();
  out.resize(at + static_cast<size_t>(end - begin));
  if (const auto failure =
          weights::preadExact(reader_, fd_, reinterpret_cast<std::byte*>(out.data() + at),
                              static_cast<size_t>(end - begin), begin)) {
    out.resize(at);
    failRead(failure->offset, weights::describeFailure(*failure));
  }
}

namespace {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

struct Field {
  uint32_t number = 0;
  uint32_t wireType = 0;
  size_t begin = 0;         // first byte of the tag
  size_t payloadBegin = 0;  // first byte of the payload (after the length for length-delimited)
  size_t end = 0;           // one past the last byte
};

class Reader {
 public:
  Reader(ModelBytes& bytes, size_t begin, size_t end, const std::string& path, const char* what)
      : bytes_(bytes), position_(begin), end_(end), path_(path), what_(what) {}

  bool done() const { return position_ >= end_; }

  Field next() {
    Field field;
    field.begin = position_;
    const uint64_t tag = varint();
    field.number = static_cast<uint32_t>(tag >> 3);
    field.wireType = static_cast<uint32_t>(tag & 7);
    if (field.number == 0) fail("field number 0");
    switch (field.wireType) {
      case kVarint:
        varint();
        break;
      case kFixed64:
        skip(8);
        break;
      case kFixed32:
        skip(4);
        break;
      case kLengthDelimited: {
        const uint64_t length = varint();
        if (length > end_ - position_) fail("a length-delimited field runs past its message");
        field.payloadBegin = position_;
        position_ += static_cast<size_t>(length);
        break;
      }
      default:
        fail("wire type " + std::to_string(field.wireType) + " is not supported");
    }
    if (field.wireType != kLengthDelimited) field.payloadBegin = field.begin;
    field.end = position_;
    return field;
  }

 private:
  uint64_t varint() {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (position_ >= end_) fail("truncated varint");
      const uint8_t byte = bytes_.at(position_++);
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return value;
    }
    fail("varint longer than 10 bytes");
  }
  void skip(size_t n) {
    if (n > end_ - position_) fail("truncated fixed-size field");
    position_ += n;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throwDataError(path_, "malformed protobuf in " + std::string(what_) + " at byte " +
                              std::to_string(position_) + ": " + what);
  }

  ModelBytes& bytes_;
  size_t position_;
  size_t end_;
  const std::string& path_;
  const char* what_;
};

void appendVarint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

void appendMessage(std::string& out, uint32_t number, const std::string& body) {
  appendVarint(out, (static_cast<uint64_t>(number) << 3) | kLengthDelimited);
  appendVarint(out, body.size());
  out += body;
}

class Stripper {
 public:
  Stripper(ModelBytes& file, const std::string& path, uint64_t stripAbove, StrippedModel& model)
      : file_(file), path_(path), stripAbove_(stripAbove), model_(model) {}

  std::string model() {
    std::string out;
    Reader reader(file_, 0, file_.size(), path_, "ModelProto");
    bool sawGraph = false;
    while (!reader.done()) {
      const Field field = reader.next();
      if (field.number == 7 && field.wireType == kLengthDelimited) {
        if (sawGraph) throwDataError(path_, "the model has more than one graph field");
        sawGraph = true;
        appendMessage(out, 7, graph(field.payloadBegin, field.end));
      } else {
        copy(out, field);
      }
    }
    if (!sawGraph) throwDataError(path_, "the model has no graph (is it an ONNX model?)");
    return out;
  }

 private:
  std::string graph(size_t begin, size_t end) {
    std::string out;
    Reader reader(file_, begin, end, path_, "GraphProto");
    int nodeIndex = 0;
    int initializerIndex = 0;
    while (!reader.done()) {
      const Field field = reader.next();
      if (field.number == 1 && field.wireType == kLengthDelimited) {
        appendMessage(out, 1, node(field.payloadBegin, field.end, nodeIndex++));
      } else if (field.number == 5 && field.wireType == kLengthDelimited) {
        DataRange range;
        appendMessage(out, 5, tensor(field.payloadBegin, field.end, range));
        if (range.length || range.offset) model_.initializers[initializerIndex] = range;
        ++initializerIndex;
      } else {
        copy(out, field);
      }
    }
    return out;
  }

  std::string node(size_t begin, size_t end, int nodeIndex) {
    std::string out;
    Reader reader(file_, begin, end, path_, "NodeProto");
    int attributeIndex = 0;
    while (!reader.done()) {
      const Field field = reader.next();
      if (field.number == 5 && field.wireType == kLengthDelimited) {
        appendMessage(out, 5,
                      attribute(field.payloadBegin, field.end, nodeIndex, attributeIndex++));
      } else {
        copy(out, field);
      }
    }
    return out;
  }

  std::string attribute(size_t begin, size_t end, int nodeIndex, int attributeIndex) {
    std::string out;
    Reader reader(file_, begin, end, path_, "AttributeProto");
    while (!reader.done()) {
      const Field field = reader.next();
      if (field.number == 5 && field.wireType == kLengthDelimited) {
        DataRange range;
        appendMessage(out, 5, tensor(field.payloadBegin, field.end, range));
        if (range.length || range.offset) {
          model_.attributeTensors[{nodeIndex, attributeIndex}] = range;
        }
      } else {
        copy(out, field);
      }
    }
    return out;
  }

  std::string tensor(size_t begin, size_t end, DataRange& range) {
    std::string out;
    Reader reader(file_, begin, end, path_, "TensorProto");
    while (!reader.done()) {
      const Field field = reader.next();
      const bool raw = field.number == 9 && field.wireType == kLengthDelimited;
      const bool packedFloats = field.number == 4 && field.wireType == kLengthDelimited;
      if (raw || packedFloats) {
        range.offset = field.payloadBegin;
        range.length = field.end - field.payloadBegin;
        range.fromFloatData = packedFloats;
        range.stripped = range.length > stripAbove_;
        if (range.stripped) continue;
      }
      copy(out, field);
    }
    return out;
  }

  void copy(std::string& out, const Field& field) { file_.append(out, field.begin, field.end); }

  ModelBytes& file_;
  const std::string& path_;
  uint64_t stripAbove_;
  StrippedModel& model_;
};

}  // namespace

StrippedModel stripModel(ModelBytes& file, const std::string& path, uint64_t stripAbove) {
  StrippedModel model;
  Stripper stripper(file, path, stripAbove, model);
  model.bytes = stripper.model();
  return model;
}

}  // namespace webnn::onnx_import
