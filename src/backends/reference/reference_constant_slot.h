// The reference backend's constant slot: backend::HostConstantSlot (host_storage.h), the
// constant's bytes in the descriptor's layout, in its own host storage or a memory map it adopted.
// Shared with backends that keep constants as the reference does (the cpu backend's plain ones).
#pragma once

#include "backends/host_storage.h"

namespace webnn::reference {

using ReferenceConstantSlot = backend::HostConstantSlot;

}  // namespace webnn::reference
