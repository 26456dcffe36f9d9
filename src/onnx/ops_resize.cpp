// Resize and Upsample onto resample2d where it computes what ONNX asks: nearest-neighbour when, for
// the actual sizes, ONNX's source index equals resample2d's at every output position (checked
// here), linear with half-pixel coordinates. Every other case (cubic, align_corners, asymmetric
// linear, other nearest rules, tf_crop_and_resize, exclude_outside, inputs other than 4-D) is
// exact too: resizing is linear along each axis, so the axis is multiplied by an interpolation
// matrix computed at import from ONNX's coordinate rules (out x in; a one-hot row for nearest, 2
// taps for linear, 4 for cubic).
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "core/checked_math.h"
#include "onnx/errors.h"
#include "onnx/ops.h"
#include "onnx/shape_logic.h"

namespace webnn::onnx_import {
namespace {

double sourceCoordinate(const std::string& transform, double x, double scale, int64_t in,
                        int64_t out) {
  if (transform == "half_pixel") return (x + 0.5) / scale - 0.5;
  if (transform == "pytorch_half_pixel") return out > 1 ? (x + 0.5) / scale - 0.5 : 0.0;
  if (transform == "align_corners") {
    return out == 1 ? 0.0 : x * static_cast<double>(in - 1) / static_cast<double>(out - 1);
  }
  if (transform == "tf_half_pixel_for_nn") return (x + 0.5) / scale;
  return x / scale;  // asymmetric
}

// (Saturating conversions: extreme scales give huge or infinite coordinates.)
int64_t nearest(const std::string& mode, double x) {
  if (mode == "floor") return checked::toInt64Saturated(std::floor(x));
  if (mode == "ceil") return checked::toInt64Saturated(std::ceil(x));
  const double f = std::floor(x);
  if (x - f == 0.5) return checked::toInt64Saturated(mode == "round_prefer_ceil" ? f + 1 : f);
  return checked::toInt64Saturated(std::round(x));
}

// The attributes that decide how an axis is interpolated.
struct Interpolation {
  std::string mode, transform, nearestMode;
  double cubicA = -0.75;
  bool excludeOutside = false;
  double extrapolation = 0.0;
  std::vector<double> roi{};  // tf_crop_and_resize: starts then ends, one per axis
};

// Upsample's rule: asymmetric coordinates, nearest rounding down.
Interpolation upsampleRule(const std::string& mode) {
  Interpolation how;
  how.mode = mode == "bilinear" ? "linear" : mode;
  how.transform = "asymmetric";
  how.nearestMode = "floor";
  return how;
}

// Cubic convolution weights of the taps at floor - 1 .. floor + 2 (ONNX's, with coefficient a).
std::array<double, 4> cubicWeights(double ratio, double a) {
  const double r = ratio, s = 1 - ratio;
  return {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
          ((a + 2) * r - (a + 3)) * r * r + 1, ((a + 2) * s - (a + 3)) * s * s + 1,
          ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a};
}

// Row `o` of the interpolation matrix of an axis from `in` to `out` positions at `scale`, as
// ONNX's reference computes it; false when the position lies outside a tf_crop_and_resize box
// (the output there is the extrapolation value).
bool interpolationRow(const Interpolation& how, int64_t o, int64_t in, int64_t out, double scale,
                      double roiStart, double roiEnd, double* row) {
  const double x = static_cast<double>(o);
  const double outWidth = scale * static_cast<double>(in);
  double source;
  if (how.transform == "tf_crop_and_resize") {
    source = outWidth == 1 ? (roiEnd - roiStart) * static_cast<double>(in - 1) / 2
                           : x * (roiEnd - roiStart) * static_cast<double>(in - 1) / (outWidth - 1);
    source += roiStart * static_cast<double>(in - 1);
    if (source < 0 || source > static_cast<double>(in - 1)) return false;
  } else if (how.transform == "align_corners") {
    source = outWidth == 1 ? 0.0 : x * static_cast<double>(in - 1) / (outWidth - 1);
  } else if (how.transform == "pytorch_half_pixel") {
    source = outWidth == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
  } else {
    source = sourceCoordinate(how.transform, x, scale, in, out);
  }
  auto clampIndex = [&](int64_t i) { return std::clamp<int64_t>(i, 0, in - 1); };
  if (how.mode == "nearest") {
    row[clampIndex(nearest(how.nearestMode, source))] += 1.0;
    return true;
  }
  const double base = std::floor(source);
  const int64_t first = checked::toInt64Saturated(base);
  const double ratio = source == base ? 1.0 : source - base;  // ONNX prefers the left pixel
  if (how.mode == "linear") {
    // Integer positions take ratio 1 on the taps (first - 1, first).
    const int64_t left = source == base ? first - 1 : first;
    row[clampIndex(left)] += 1 - ratio;
    row[clampIndex(left + 1)] += ratio;
    return true;
  }
  const std::array<double, 4> weights = cubicWeights(ratio, how.cubicA);
  const int64_t start = (source == base ? first - 2 : first - 1);
  double kept = 0;
  for (int64_t t = 0; t < 4; ++t) {
    const int64_t index = start + t;
    if (how.excludeOutside && (index < 0 || index >= in)) continue;
    kept += weights[static_cast<size_t>(t)];
  }
  for (int64_t t = 0; t < 4; ++t) {
    const int64_t index = start + t;
    if (how.excludeOutside && (index < 0 || index >= in)) continue;
    const double w = weights[static_cast<size_t>(t)];
    row[clampIndex(index)] += how.excludeOutside ? w / kept : w;
  }
  return true;
}

// The resize as one matrix product per resized axis: Y = A_axis applied along that axis.
void resampleByMatrices(Context& c, const std::vector<double>& scales,
                        const std::vector<int64_t>& sizes, const Interpolation& how) {
  MLOperand x = c.input(0);
  const auto shape = x.shape();
  const size_t rank = shape.size();
  if (!isFloatingPoint(x.dataType())) c.fail("resizing integers is not supported");
  const std::string l = c.label();
  std::vector<uint32_t> axes;
  for (uint32_t a = 0; a < rank; ++a) {
    if (sizes[a] != shape[a] || how.transform == "tf_crop_and_resize") axes.push_back(a);
  }
  // The matrices are held at import: bounded before anything is computed.
  constexpr uint64_t kMaxMatrixElements = uint64_t{1} << 24;
  uint64_t elements = 0;
  for (uint32_t a : axes) elements += static_cast<uint64_t>(sizes[a]) * shape[a];
  if (elements > kMaxMatrixElements) {
    c.fail("this resize needs interpolation matrices of " + std::to_string(elements) +
           " elements, above the limit of " + std::to_string(kMaxMatrixElements));
  }
  const bool lifted = rank == 1;
  if (lifted) x = c.builder.reshape(x, {1, shape[0]}, {l + "/2d"});
  const size_t r = lifted ? 2 : rank;
  std::optional<MLOperand> outside;  // tf_crop_and_resize: where the extrapolation value goes
  for (uint32_t a : axes) {
    const uint32_t axis = lifted ? 1 : a;
    const int64_t in = shape[a], out = sizes[a];
    std::vector<double> matrix(static_cast<size_t>(out * in), 0.0);
    Known outsideRow;
    outsideRow.type = kBool;
    outsideRow.shape.assign(r, 1);
    outsideRow.shape[axis] = out;
    bool anyOutside = false;
    for (int64_t o = 0; o < out; ++o) {
      const double roiStart = how.roi.empty() ? 0.0 : how.roi[a];
      const double roiEnd = how.roi.empty() ? 1.0 : how.roi[rank + a];
      const bool inside =
          interpolationRow(how, o, in, out, scales[a], roiStart, roiEnd, matrix.data() + o * in);
      outsideRow.ints.push_back(inside ? 0 : 1);
      anyOutside = anyOutside || !inside;
    }
    // Along the last axis: x [.., in] . A^T [in, out]; along another: A [out, in] . x [.., in, k]
    // after moving that axis next to last (a transpose swapping it with rank - 2).
    const bool last = axis == r - 1;
    Known weights;
    weights.type = isOnnxFloat(c.onnxType(0)) ? c.onnxType(0) : kFloat;
    weights.shape = last ? Shape64{in, out} : Shape64{out, in};
    c.reserveKnown(weights.shape, "the interpolation matrix");
    weights.floats.resize(matrix.size());
    for (int64_t o = 0; o < out; ++o) {
      for (int64_t i = 0; i < in; ++i) {
        weights.floats[static_cast<size_t>(last ? i * out + o : o * in + i)] =
            matrix[static_cast<size_t>(o * in + i)];
      }
    }
    const std::string name = l + "/axis" + std::to_string(a);
    if (last) {
      x = c.builder.matmul(x, c.constant(weights), {name});
    } else {
      std::vector<uint32_t> swap(r);
      for (uint32_t i = 0; i < r; ++i) swap[i] = i;
      std::swap(swap[axis], swap[r - 2]);
      const bool moved = axis != r - 2;
      if (moved) x = c.builder.transpose(x, {name + "/to", swap});
      x = c.builder.matmul(c.constant(weights), x, {name});
      if (moved) x = c.builder.transpose(x, {name + "/back", swap});
    }
    if (anyOutside) {
      c.reserveKnown(outsideRow.shape, "the extrapolation mask");
      const MLOperand mask = c.constant(outsideRow);
      outside = outside ? c.builder.logicalOr(*outside, mask, {name + "/outside"}) : mask;
    }
  }
  if (outside) {
    x = c.builder.where(*outside, c.scalar(x.dataType(), how.extrapolation), x,
                        {l + "/extrapolate"});
  }
  if (lifted) x = c.builder.reshape(x, {static_cast<uint32_t>(sizes[0])}, {l});
  c.setOutput(0, x);
}

void resample(Context& c, const std::vector<double>& scales, const std::vector<int64_t>& sizes,
              bool fromSizes, const Interpolation& how) {
  const std::string& mode = how.mode;
  const std::string& transform = how.transform;
  const std::string& nearestMode = how.nearestMode;
  MLOperand x = c.input(0);
  const auto shape = x.shape();
  if (sizes.size() != shape.size()) c.failData("sizes must have one value per axis");
  // Every size a WebNN dimension, and the output within the tensor limit, before anything loops
  // over it.
  const auto outputBytes =
      checked::byteLength(toWebnnShape(sizes, c), bitsPerElement(x.dataType()) / 8);
  if (!outputBytes || *outputBytes > c.limits.maxTensorBytes) {
    c.failData("the resized output is larger than the limit of one tensor (" +
               std::to_string(c.limits.maxTensorBytes) + " bytes, ImportOptions::maxTensorBytes)");
  }
  // Per-axis scales (ONNX's: sizes / input when sizes are given) for the coordinate rules.
  std::vector<double> axisScales = scales;
  if (fromSizes) {
    axisScales.clear();
    for (size_t i = 0; i < shape.size(); ++i)
      axisScales.push_back(static_cast<double>(sizes[i]) / shape[i]);
  }
  std::vector<uint32_t> axes;
  for (uint32_t i = 0; i < shape.size(); ++i) {
    if (sizes[i] != shape[i]) axes.push_back(i);
  }
  if (axes.empty() && transform != "tf_crop_and_resize") {
    c.setOutput(0, x);
    return;
  }
  const bool resample2dFits = shape.size() == 4 && axes.size() <= 2 && mode != "cubic" &&
                              transform != "tf_crop_and_resize" && !how.excludeOutside &&
                              isFloatingPoint(x.dataType());
  if (!resample2dFits) {
    resampleByMatrices(c, axisScales, sizes, how);
    return;
  }
  if (axes.size() == 1)
    axes = axes[0] == 3 ? std::vector<uint32_t>{2, 3} : std::vector<uint32_t>{axes[0], axes[0] + 1};
  std::vector<float> webnnScales;
  for (uint32_t a : axes) {
    const double scale = fromSizes ? static_cast<double>(sizes[a]) / shape[a] : scales[a];
    webnnScales.push_back(static_cast<float>(scale));
    if (mode == "nearest") {
      // The check visits every output position of the axis: bounded (a CPU bomb otherwise).
      constexpr int64_t kMaxCheckedPositions = int64_t{1} << 20;
      if (sizes[a] > kMaxCheckedPositions) {
        c.fail("nearest resizing to more than " + std::to_string(kMaxCheckedPositions) +
               " positions along an axis is not supported");
      }
      for (int64_t d = 0; d < sizes[a]; ++d) {
        const int64_t in = shape[a];
        int64_t onnx = nearest(
            nearestMode, sourceCoordinate(transform, static_cast<double>(d), scale, in, sizes[a]));
        onnx = std::clamp<int64_t>(onnx, 0, in - 1);
        auto webnn = checked::toInt64Saturated(
            std::floor((static_cast<double>(d) + 0.5) / static_cast<float>(scale)));
        webnn = std::clamp<int64_t>(webnn, 0, in - 1);
        if (onnx != webnn) {
          resampleByMatrices(c, axisScales, sizes, how);
          return;
        }
      }
    } else if (!(transform == "half_pixel" ||
                 (transform == "pytorch_half_pixel" && sizes[a] > 1))) {
      resampleByMatrices(c, axisScales, sizes, how);
      return;
    }
  }
  MLResample2dOptions options;
  options.label = c.label();
  options.mode =
      mode == "nearest" ? MLInterpolationMode::NearestNeighbor : MLInterpolationMode::Linear;
  options.axes = axes;
  if (fromSizes) {
    options.sizes = std::vector<uint32_t>{static_cast<uint32_t>(sizes[axes[0]]),
                                          static_cast<uint32_t>(sizes[axes[1]])};
  } else {
    options.scales = webnnScales;
  }
  MLOperand y = c.builder.resample2d(x, options);
  if (y.shape() != toWebnnShape(sizes, c)) c.failData("the resized shape differs from ONNX's");
  c.setOutput(0, y);
}

void resizeFromScales(Context& c, const Known& scalesKnown, const Interpolation& how) {
  const auto shape = c.shape(0);
  if (scalesKnown.size() != shape.size()) c.failData("scales must have one value per axis");
  std::vector<double> scales;
  std::vector<int64_t> sizes;
  for (size_t i = 0; i < shape.size(); ++i) {
    scales.push_back(scalesKnown.number(i));
    if (!(scales[i] > 0)) c.failData("scales must be positive");
    const auto size = checked::toInt64(std::floor(shape[i] * scales[i]));
    if (!size || !checked::toDimension(*size)) {
      c.failData("scale " + std::to_string(scales[i]) + " of axis " + std::to_string(i) +
                 " gives a size outside WebNN's dimension range");
    }
    sizes.push_back(*size);
  }
  resample(c, scales, sizes, false, how);
}

void resize(Context& c) {
  Interpolation how;
  how.mode = c.attrString("mode", "nearest");
  how.transform = c.attrString("coordinate_transformation_mode", "half_pixel");
  how.nearestMode = c.attrString("nearest_mode", "round_prefer_floor");
  how.cubicA = c.attrFloat("cubic_coeff_a", -0.75f);
  how.excludeOutside = c.attrInt("exclude_outside", 0) != 0;
  how.extrapolation = c.attrFloat("extrapolation_value", 0.0f);
  if (c.opset < 11) {
    how.transform = "asymmetric";
    how.nearestMode = "floor";
    resizeFromScales(c, c.requireKnown(1, "scales"), how);
    return;
  }
  if (how.transform == "tf_crop_and_resize") {
    const Known& roi = c.requireKnown(1, "roi");
    if (roi.size() != 2 * c.rank(0)) c.failData("roi must hold a start and an end per axis");
    for (size_t i = 0; i < roi.size(); ++i) how.roi.push_back(roi.number(i));
  }
  const Known* scales = c.hasInput(2) ? &c.requireKnown(2, "scales") : nullptr;
  if (scales && scales->size() > 0) {
    resizeFromScales(c, *scales, how);
    return;
  }
  if (!c.hasInput(3)) c.failData("neither scales nor sizes is given");
  const auto sizes = c.requireKnown(3, "sizes").integers();
  if (sizes.size() != c.rank(0)) c.failData("sizes must have one value per axis");
  resample(c, {}, sizes, true, how);
}

std::string checkResize(const ::onnx::NodeProto& node, int64_t) {
  const std::string mode = stringAttribute(node, "mode", "nearest");
  if (mode != "nearest" && mode != "linear" && mode != "cubic") return "mode=" + mode;
  if (intAttribute(node, "antialias", 0) != 0) return "antialias=1";
  if (findAttribute(node, "axes")) return "axes";
  const std::string policy = stringAttribute(node, "keep_aspect_ratio_policy", "stretch");
  if (policy != "stretch") return "keep_aspect_ratio_policy=" + policy;
  const std::string transform =
      stringAttribute(node, "coordinate_transformation_mode", "half_pixel");
  if (transform != "half_pixel" && transform != "pytorch_half_pixel" &&
      transform != "align_corners" && transform != "asymmetric" &&
      transform != "tf_half_pixel_for_nn" && transform != "tf_crop_and_resize")
    return "coordinate_transformation_mode=" + transform;
  const std::string nearestMode = stringAttribute(node, "nearest_mode", "round_prefer_floor");
  if (nearestMode != "round_prefer_floor" && nearestMode != "round_prefer_ceil" &&
      nearestMode != "floor" && nearestMode != "ceil")
    return "nearest_mode=" + nearestMode;
  return {};
}

void upsample(Context& c) {
  const std::string mode = c.attrString("mode", "nearest");
  if (c.opset < 9) {
    const auto scales = c.attrFloats("scales").value_or(std::vector<float>{});
    Known k;
    k.type = kFloat;
    k.floats.assign(scales.begin(), scales.end());
    k.shape = {static_cast<int64_t>(k.floats.size())};
    resizeFromScales(c, k, upsampleRule(mode));
  } else {
    resizeFromScales(c, c.requireKnown(1, "scales"), upsampleRule(mode));
  }
}

std::string checkUpsample(const ::onnx::NodeProto& node, int64_t) {
  const std::string mode = stringAttribute(node, "mode", "nearest");
  if (mode != "nearest" && mode != "linear" && mode != "bilinear") return "mode=" + mode;
  return {};
}

}  // namespace

void addResizeOps(OpTable& t) {
  t["Resize"] = {resize, checkResize};
  t["Upsample"] = {upsample, checkUpsample};
}

}  // namespace webnn::onnx_import
