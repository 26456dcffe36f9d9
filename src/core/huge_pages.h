// Whether large host buffers (weights, packed constants, arenas) are advised for transparent huge
// pages. Huge pages make first touch fast on most machines (11-15 GB/s against ~1.5 GB/s for
// 4 KiB pages) and cut TLB misses when a kernel streams hundreds of MiB of weights. In a VM whose
// virtio balloon reports free memory to the host at huge-page granularity (free page reporting,
// `page_reporting_order` <= 9), every free 2 MiB block has been handed back to the host, so each
// huge-page fault makes the host fault in and zero 2 MiB: measured at 0.1 GB/s, 10-20x slower
// than 4 KiB pages there, while 4 KiB faults mostly reuse memory the guest still holds.
//
// WEBNN_HUGE_PAGES=always|never|auto (default auto: advise unless that balloon is found).
#pragma once

#include <string>

namespace webnn {

// The decision for this process, taken once (environment and sysfs read at the first call).
bool adviseHugePages();

// The auto rule on a sysfs tree rooted at `sysfsRoot` ("/sys"): true unless a virtio balloon
// (device 0x0005) offers free page reporting (feature bit 5) and page_reporting_order <= 9.
bool hugePagesPayOff(const std::string& sysfsRoot);

}  // namespace webnn
