// where: output = condition != 0 ? trueValue : falseValue, three-way broadcasting; every data type
// (int4/uint4 element by element through the nibble accessors).
#include <type_traits>

#include "backends/reference/ops/registration.h"

namespace webnn::reference {
namespace {

void where(const KernelContext& context) {
  const Tensor condition = context.input(0);
  const Tensor trueValue = context.input(1);
  const Tensor falseValue = context.input(2);
  const Tensor out = context.output(0);
  const uint8_t* pc = condition.as<uint8_t>();
  BroadcastIterator iterator(out.shape(),
                             {condition.shape(), trueValue.shape(), falseValue.shape()});
  visitDataType(out.dataType(), [&]<class T>(TypeTag<T>) {
    if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, Uint4>) {
      const MLOperandDataType type = out.dataType();
      iterator.forEach([&](uint64_t index, const std::vector<uint64_t>& offsets) {
        const int64_t value = pc[offsets[0]] != 0 ? loadInteger(type, trueValue.data, offsets[1])
                                                  : loadInteger(type, falseValue.data, offsets[2]);
        storeInteger(type, out.data, index, value);
      });
    } else {
      const T* pt = trueValue.as<T>();
      const T* pf = falseValue.as<T>();
      T* po = out.as<T>();
      iterator.forEach([&](uint64_t index, const std::vector<uint64_t>& offsets) {
        po[index] = pc[offsets[0]] != 0 ? pt[offsets[1]] : pf[offsets[2]];
      });
    }
  });
}

}  // namespace

void registerWhereKernels(KernelTable& table) {
  table.set(graph::OpType::Where, where);
}

}  // namespace webnn::reference
