// Whether large host buffers (weights, packed constants, arenas) are advised for transparent huge
// pages. Huge pages make first touch fast on most machines (11-15 GB/s against ~1.5 GB/s for
// 4 KiB pages) and cut TLB misses when a kernel streams hundreds of MiB of weights. In a VM whose
// virtio balloon reports free memory to the host at huge-page granularity (free page reporting,
// `page_reporting_order` <= 9), every free 2 MiB block has been handed back to the host, so each
// huge-page fault makes the host fault in and zero 2 MiB: measured at 0.1 GB/s, 10-20x slower
// than 4 KiB pages there, while 4 KiB faults mostly reuse memory the guest still holds. But the
// same kind of VM, on another day or host, faulted huge pages in at 1.8-2.3 GB/s against
// 0.28-0.36 GB/s for 4 KiB pages, and ran a 512 MiB matrix-vector product 9% faster on them: the
// balloon says the cost may be high, not that it is. So where it is found, the process measures:
// it faults in one huge page and 256 KiB of 4 KiB pages once (firstTouchProbe) and advises huge
// pages unless they fault in clearly slower (hugePageFaultsPayOff).
//
// WEBNN_HUGE_PAGES=always|never|auto (default auto: advise unless that balloon is found and the
// probe finds huge-page faults slower).
#pragma once

#include <cstdint>
#include <string>

namespace webnn {

// The decision for this process, taken once (environment and sysfs read at the first call).
bool adviseHugePages();

// The auto rule on a sysfs tree rooted at `sysfsRoot` ("/sys"): true unless a virtio balloon
// (device 0x0005) offers free page reporting (feature bit 5) and page_reporting_order <= 9.
bool hugePagesPayOff(const std::string& sysfsRoot);

// Seconds to fault in the same number of bytes of fresh anonymous memory advised for huge pages
// and advised against them.
struct FirstTouchTimes {
  double hugeSeconds = 0;
  double smallSeconds = 0;
};

// Faults in `bytes` (rounded up to whole huge pages) of fresh memory advised for huge pages, and
// an eighth of that advised against them (its time scaled to `bytes`), one byte per 4 KiB page,
// and unmaps both. Where madvise or mmap fails, both times are 0 (no preference). The process's
// decision probes one huge page: about 1 ms where huge pages pay off.
FirstTouchTimes firstTouchProbe(uint64_t bytes);

// The probe's rule: huge pages pay off unless their faults took more than twice as long as 4 KiB
// pages' for the same bytes (their fewer TLB misses are worth up to that much at first touch:
// the 512 MiB product above runs 9% faster on them at every dispatch).
bool hugePageFaultsPayOff(const FirstTouchTimes& times);

}  // namespace webnn
