// Resize and Upsample onto resample2d. Nearest-neighbour modes are accepted when, for the actual
// sizes, ONNX's source index equals resample2d's for every output position (checked here); linear
// needs half-pixel coordinates (resample2d's).
#include <cmath>

#include "core/checked_math.h"
#include "onnx/errors.h"
#include "onnx/ops.h"

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

void resample(Context& c, const std::vector<double>& scales, const std::vector<int64_t>& sizes,
              bool fromSizes, const std::string& mode, const std::string& transform,
              const std::string& nearestMode) {
  MLOperand x = c.input(0);
  const auto shape = x.shape();
  if (shape.size() != 4) c.fail("only 4-D inputs are supported");
  if (sizes.size() != 4) c.failData("sizes must have one value per axis");
  // Every size a WebNN dimension, and the output within the tensor limit, before anything loops
  // over it.
  const auto outputBytes =
      checked::byteLength(toWebnnShape(sizes, c), bitsPerElement(x.dataType()) / 8);
  if (!outputBytes || *outputBytes > c.limits.maxTensorBytes) {
    c.failData("the resized output is larger than the limit of one tensor (" +
               std::to_string(c.limits.maxTensorBytes) + " bytes, ImportOptions::maxTensorBytes)");
  }
  std::vector<uint32_t> axes;
  for (uint32_t i = 0; i < 4; ++i) {
    if (sizes[i] != shape[i]) axes.push_back(i);
  }
  if (axes.size() > 2) c.fail("resizing more than two axes is not supported");
  if (axes.empty()) {
    c.setOutput(0, x);
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
          c.fail("nearest resizing with coordinate_transformation_mode=" + transform +
                 " and nearest_mode=" + nearestMode + " at these sizes is not supported");
        }
      }
    } else if (!(transform == "half_pixel" ||
                 (transform == "pytorch_half_pixel" && sizes[a] > 1))) {
      c.fail("linear resizing with coordinate_transformation_mode=" + transform +
             " is not supported");
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

void resizeFromScales(Context& c, const Known& scalesKnown, const std::string& mode,
                      const std::string& transform, const std::string& nearestMode) {
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
  resample(c, scales, sizes, false, mode, transform, nearestMode);
}

void resize(Context& c) {
  const std::string mode = c.attrString("mode", "nearest");
  const std::string transform = c.attrString("coordinate_transformation_mode", "half_pixel");
  const std::string nearestMode = c.attrString("nearest_mode", "round_prefer_floor");
  if (c.opset < 11) {
    resizeFromScales(c, c.requireKnown(1, "scales"), mode, "asymmetric", "floor");
    return;
  }
  const Known* scales = c.hasInput(2) ? &c.requireKnown(2, "scales") : nullptr;
  if (scales && scales->size() > 0) {
    resizeFromScales(c, *scales, mode, transform, nearestMode);
    return;
  }
  if (!c.hasInput(3)) c.failData("neither scales nor sizes is given");
  const auto sizes = c.requireKnown(3, "sizes").integers();
  if (sizes.size() != c.rank(0)) c.failData("sizes must have one value per axis");
  resample(c, {}, sizes, true, mode, transform, nearestMode);
}

std::string checkResize(const ::onnx::NodeProto& node, int64_t) {
  const std::string mode = stringAttribute(node, "mode", "nearest");
  if (mode != "nearest" && mode != "linear") return "mode=" + mode;
  if (intAttribute(node, "antialias", 0) != 0) return "antialias=1";
  if (findAttribute(node, "axes")) return "axes";
  const std::string policy = stringAttribute(node, "keep_aspect_ratio_policy", "stretch");
  if (policy != "stretch") return "keep_aspect_ratio_policy=" + policy;
  const std::string transform =
      stringAttribute(node, "coordinate_transformation_mode", "half_pixel");
  if (transform == "tf_crop_and_resize") return "coordinate_transformation_mode=" + transform;
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
    resizeFromScales(c, k, mode == "bilinear" ? "linear" : mode, "asymmetric", "floor");
  } else {
    resizeFromScales(c, c.requireKnown(1, "scales"), mode == "bilinear" ? "linear" : mode,
                     "asymmetric", "floor");
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
