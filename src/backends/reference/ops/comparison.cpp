// Comparisons (any data type) and logical ops (uint8): uint8 output of 0 or 1. Floats compare as
// IEEE values (NaN compares unequal to everything); integers compare exactly.
#include <type_traits>

#include "backends/reference/ops/registration.h"

namespace webnn::reference {
namespace {

template <class Predicate>
void compareKernel(const KernelContext& context, Predicate predicate) {
  const Tensor a = context.input(0);
  const Tensor b = context.input(1);
  const Tensor out = context.output(0);
  uint8_t* po = out.as<uint8_t>();
  BroadcastIterator iterator(out.shape(), {a.shape(), b.shape()});
  visitDataType(a.dataType(), [&]<class T>(TypeTag<T>) {
    if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, Uint4>) {
      iterator.forEach([&](uint64_t index, const std::vector<uint64_t>& offsets) {
        po[index] = predicate(loadInteger(a.dataType(), a.data, offsets[0]),
                              loadInteger(b.dataType(), b.data, offsets[1]))
                        ? 1
                        : 0;
      });
    } else {
      const T* pa = a.as<T>();
      const T* pb = b.as<T>();
      iterator.forEach([&](uint64_t index, const std::vector<uint64_t>& offsets) {
        if constexpr (kIsFloat<T>) {
          po[index] = predicate(toDouble(pa[offsets[0]]), toDouble(pb[offsets[1]])) ? 1 : 0;
        } else {
          po[index] = predicate(pa[offsets[0]], pb[offsets[1]]) ? 1 : 0;
        }
      });
    }
  });
}

}  // namespace

void registerComparisonKernels(KernelTable& table) {
  table.set(graph::OpType::Equal, [](const KernelContext& c) {
    compareKernel(c, [](auto x, auto y) { return x == y; });
  });
  table.set(graph::OpType::NotEqual, [](const KernelContext& c) {
    compareKernel(c, [](auto x, auto y) { return !(x == y); });
  });
  table.set(graph::OpType::Greater,
            [](const KernelContext& c) { compareKernel(c, [](auto x, auto y) { return x > y; }); });
  table.set(graph::OpType::GreaterOrEqual, [](const KernelContext& c) {
    compareKernel(c, [](auto x, auto y) { return x >= y; });
  });
  table.set(graph::OpType::Lesser,
            [](const KernelContext& c) { compareKernel(c, [](auto x, auto y) { return x < y; }); });
  table.set(graph::OpType::LesserOrEqual, [](const KernelContext& c) {
    compareKernel(c, [](auto x, auto y) { return x <= y; });
  });
  table.set(graph::OpType::LogicalAnd, [](const KernelContext& c) {
    compareKernel(c, [](auto x, auto y) { return x != 0 && y != 0; });
  });
  table.set(graph::OpType::LogicalOr, [](const KernelContext& c) {
    compareKernel(c, [](auto x, auto y) { return x != 0 || y != 0; });
  });
  table.set(graph::OpType::LogicalXor, [](const KernelContext& c) {
    compareKernel(c, [](auto x, auto y) { return (x != 0) != (y != 0); });
  });
  table.set(graph::OpType::LogicalNot, [](const KernelContext& c) {
    const Tensor a = c.input(0);
    const Tensor out = c.output(0);
    const uint8_t* pa = a.as<uint8_t>();
    uint8_t* po = out.as<uint8_t>();
    const uint64_t count = out.elementCount();
    for (uint64_t i = 0; i < count; ++i) po[i] = pa[i] == 0 ? 1 : 0;
  });
}

}  // namespace webnn::reference
