// The compute shaders of the vulkan backend (src/backends/vulkan/shaders/*.comp), compiled to
// SPIR-V by glslc at build time and embedded in the library (a generated source).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace webnn::vulkan {

// The SPIR-V words of shader `name` (the .comp file's name without extension); empty when there
// is no such shader.
std::span<const uint32_t> shaderCode(std::string_view name);

}  // namespace webnn::vulkan
