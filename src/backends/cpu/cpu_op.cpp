// Helpers shared by the cpu backend's op files.
#include "backends/cpu/cpu_op.h"

namespace webnn::cpu {

dnnl::memory::dims dimsOf(const std::vector<uint32_t>& shape) {
  return dnnl::memory::dims(shape.begin(), shape.end());
}

dnnl::memory::desc columnPanelsDesc(dnnl::memory::dim k, dnnl::memory::dim n,
                                    dnnl::memory::dim width, dnnl::memory::data_type type) {
  dnnl_memory_desc_t desc = dnnl::memory::desc({k, n}, type, dnnl::memory::format_tag::ab).data;
  desc.padded_dims[1] = (n + width - 1) / width * width;
  auto& blocking = desc.format_desc.blocking;
  blocking.strides[0] = width;
  blocking.strides[1] = k * width;
  blocking.inner_nblks = 1;
  blocking.inner_blks[0] = width;
  blocking.inner_idxs[0] = 1;
  return dnnl::memory::desc(desc);
}

dnnl::memory::desc plainFloat32Desc(const dnnl::memory::dims& dims) {
  dnnl::memory::dims strides(dims.size());
  dnnl::memory::dim stride = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= dims[i];
  }
  return dnnl::memory::desc(dims, dnnl::memory::data_type::f32, strides);
}

}  // namespace webnn::cpu

namespace webnn::cpu {

dnnl::primitive_attr opAttributes() {
  dnnl::primitive_attr attributes;
  attributes.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attributes;
}

std::string implementationOf(const dnnl::primitive_desc_base& descriptor) {
  return descriptor.impl_info_str();
}

void executeWithScratchpad(const dnnl::primitive& primitive,
                           const dnnl::primitive_desc_base& descriptor, dnnl::stream& stream,
                           std::unordered_map<int, dnnl::memory> arguments, std::byte* scratchpad) {
  const dnnl::memory::desc scratchpadDesc = descriptor.scratchpad_desc();
  if (scratchpadDesc.get_size() > 0) {
    arguments.emplace(DNNL_ARG_SCRATCHPAD,
                      scratchpad ? dnnl::memory(scratchpadDesc, descriptor.get_engine(), scratchpad)
                                 : dnnl::memory(scratchpadDesc, descriptor.get_engine()));
  }
  primitive.execute(stream, arguments);
}

uint64_t scratchpadBytes(const dnnl::primitive_desc_base& descriptor) {
  const uint64_t bytes = descriptor.scratchpad_desc().get_size();
  return (bytes + 63) / 64 * 64;
}

}  // namespace webnn::cpu
