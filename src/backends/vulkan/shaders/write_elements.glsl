// The main of a shader whose output element o is the including shader's `uvec2 element(uint o)`
// (raw bits, as elements.glsl's): p[0] output elements of p[1] (1, 2, 4 or 8) bytes, written to
// `dst` (the including shader's output buffer, contiguous). One invocation per output element
// of 4 or 8 bytes, per output word of narrower ones (so that no two invocations write one word;
// a last word's spare bytes get 0).

void main() {
  uint w = flatIndex();
  uint count = p[0];
  uint bytes = p[1];
  if (bytes >= 4u) {
    if (w >= count) return;
    uvec2 v = element(w);
    if (bytes == 8u) {
      dst[2u * w] = v.x;
      dst[2u * w + 1u] = v.y;
    } else {
      dst[w] = v.x;
    }
    return;
  }
  uint perWord = 4u / bytes;
  uint first = w * perWord;
  if (first >= count) return;
  uint mask = bytes == 2u ? 0xffffu : 0xffu;
  uint word = 0u;
  for (uint k = 0u; k < perWord && first + k < count; ++k) {
    word |= (element(first + k).x & mask) << (k * bytes * 8u);
  }
  dst[w] = word;
}
