// How the panel kernels (half_gemm.cpp, float_gemm.cpp) share a product among their threads: a
// grid of panelParts x rowParts tiles over B's column panels and A's row units.
#pragma once

#include <algorithm>
#include <cstdint>

namespace webnn::cpu {

inline uint64_t ceilDiv(uint64_t value, uint64_t divisor) {
  return (value + divisor - 1) / divisor;
}

// Tile t covers the (t % panelParts)-th share of the panels and the (t / panelParts)-th share of
// the row units.
struct PanelWorkSplit {
  uint64_t panelParts = 1, rowParts = 1;
  uint64_t tiles() const { return panelParts * rowParts; }
};

// The split over at most `threads` tiles whose largest tile (panels x row units) is smallest,
// preferring splits over panels on ties (each thread then streams its own part of B, the large
// operand). rowUnits and panels are at least 1.
inline PanelWorkSplit choosePanelWorkSplit(uint64_t rowUnits, uint64_t panels, uint64_t threads) {
  PanelWorkSplit best;
  uint64_t bestCost = rowUnits * panels;
  for (uint64_t panelParts = 1; panelParts <= std::min(threads, panels); ++panelParts) {
    const uint64_t rowParts = std::min(threads / panelParts, rowUnits);
    const uint64_t cost = ceilDiv(panels, panelParts) * ceilDiv(rowUnits, rowParts);
    if (cost < bestCost || (cost == bestCost && panelParts > best.panelParts)) {
      best = {panelParts, rowParts};
      bestCost = cost;
    }
  }
  return best;
}

}  // namespace webnn::cpu
