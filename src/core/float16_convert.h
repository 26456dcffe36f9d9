// Bulk IEEE 754 binary16 <-> binary32 conversions (round to nearest even), with F16C where the CPU
// has it (chosen at run time) and core/float16.h's scalar conversions elsewhere. Both give the same
// values; only NaN payloads may differ.
#pragma once

#include <cstdint>

namespace webnn {

// Whether the CPU (and the OS) run F16C instructions (checked once).
bool cpuHasF16c();

void convertHalfToFloat(const uint16_t* from, float* to, uint64_t count);
void convertFloatToHalf(const float* from, uint16_t* to, uint64_t count);

}  // namespace webnn
