// ONNX's comparison of an output with its expected value (numpy.testing.assert_allclose, as the
// ONNX backend tests use it): |actual - expected| <= atol + rtol * |expected| element by element,
// NaN equal to NaN and infinities equal to themselves; integer and boolean types exactly.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include <webnn/types.h>

namespace webnn::onnx_suite {

struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-7;
};

// One tensor's type, shape and bytes (little-endian, WebNN's element layout).
struct TensorValue {
  MLOperandDataType dataType = MLOperandDataType::Float32;
  std::vector<uint32_t> shape;
  std::vector<std::byte> bytes;
};

// Empty when `actual` matches `expected`; otherwise why not (type, shape, or the first differing
// element with its index, both values, and how many elements differ).
std::string compareAllClose(const TensorValue& actual, const TensorValue& expected,
                            const Tolerance& tolerance = {});

}  // namespace webnn::onnx_suite
