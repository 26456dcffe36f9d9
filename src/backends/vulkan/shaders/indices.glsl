// Index resolution of gather* and scatter* (as the reference backend's resolveIndex): index i of
// the including shader's `indices` buffer (data type int32, uint32 or int64 by elements.glsl's
// codes 2, 3, 4) against an axis of `size`: a negative index wraps once (+ size), then an index
// out of [0, size) clamps to it. int64 without shaderInt64: its two words.

uint resolveIndex(uint type, uint i, uint size) {
  if (size == 0u) return 0u;
  uint low, high;
  if (type == 4u) {
    low = indices[2u * i];
    high = indices[2u * i + 1u];
  } else {
    low = indices[i];
    high = type == 2u && int(low) < 0 ? 0xffffffffu : 0u;
  }
  if (high == 0u) return min(low, size - 1u);  // 0 <= index < 2^32
  if (int(high) > 0) return size - 1u;         // index >= 2^32
  if (high != 0xffffffffu || low == 0u) return 0u;  // index <= -2^32
  uint magnitude = 0u - low;                   // -2^32 < index < 0
  return magnitude > size ? 0u : size - magnitude;
}
