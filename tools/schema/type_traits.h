// Type traits the schema's code writers share (typescript.cpp, python_stubs.cpp): whether a
// parameter or member type is a std::optional or a std::vector, and of what.
#pragma once

#include <optional>
#include <type_traits>
#include <vector>

namespace webnn::tools {

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {
  using Type = T;
};

template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {
  using Type = T;
};

}  // namespace webnn::tools
