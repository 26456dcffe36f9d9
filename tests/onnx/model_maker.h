// Builds small ONNX models in the tests with libonnx and writes them to temporary files.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

namespace webnn::testing {

class ModelMaker {
 public:
  explicit ModelMaker(int64_t opset = 17);
  // A float input; negative dimensions become dim_param "N".
  void input(const std::string& name, const std::vector<int64_t>& shape, int32_t type = 1);
  void output(const std::string& name);
  // An initializer with embedded raw_data.
  void floats(const std::string& name, const std::vector<int64_t>& shape,
              const std::vector<float>& values);
  void ints(const std::string& name, const std::vector<int64_t>& values);
  // An initializer of ONNX type `type` with `bytes` as its raw_data (little-endian elements).
  void raw(const std::string& name, int32_t type, const std::vector<int64_t>& shape,
           const std::string& bytes);
  // Imports `version` of operator set `domain` (e.g. "com.microsoft" for ONNX Runtime's ops).
  void opset(const std::string& domain, int64_t version);
  // An initializer in external file `location` (beside the model) at `offset`.
  void externalFloats(const std::string& name, const std::vector<int64_t>& shape,
                      const std::string& location, uint64_t offset, uint64_t length);
  ::onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs);
  static void attr(::onnx::NodeProto& node, const std::string& name, int64_t value);
  static void attr(::onnx::NodeProto& node, const std::string& name, float value);
  static void attr(::onnx::NodeProto& node, const std::string& name, const std::string& value);
  static void attr(::onnx::NodeProto& node, const std::string& name,
                   const std::vector<int64_t>& values);
  // Writes the model to a new file in a fresh temporary folder; returns its path.
  std::string save();
  const std::string& folder() const { return folder_; }

  ::onnx::ModelProto model;

 private:
  std::string folder_;
};

}  // namespace webnn::testing
