// The main of a shader whose output element o is the including shader's `uvec2 element(uint o)`
// (raw bits, as elements.glsl's): p[0] output elements of p[1] (4, 8, 16, 32 or 64) bits,
// written to `dst` (the including shader's output buffer, contiguous). One invocation per output
// element of 32 or 64 bits, per output word of narrower ones (so that no two invocations write
// one word; a last word's spare bits get 0).

//
// An including shader may define OUTPUT_INDEX_OF(w): then, for elements of 32 or 64 bits, p[0]
// counts invocations and invocation w computes and writes output element OUTPUT_INDEX_OF(w) (a
// step over part of the output).
#ifndef OUTPUT_INDEX_OF
#define OUTPUT_INDEX_OF(w) (w)
#endif

void main() {
  uint w = flatIndex();
  uint count = p[0];
  uint bits = p[1];
  if (bits >= 32u) {
    if (w >= count) return;
    uint o = OUTPUT_INDEX_OF(w);
    uvec2 v = element(o);
    if (bits == 64u) {
      dst[2u * o] = v.x;
      dst[2u * o + 1u] = v.y;
    } else {
      dst[o] = v.x;
    }
    return;
  }
  uint perWord = 32u / bits;
  uint first = w * perWord;
  if (first >= count) return;
  uint word = 0u;
  for (uint k = 0u; k < perWord && first + k < count; ++k) {
    word = bitfieldInsert(word, element(first + k).x, int(k * bits), int(bits));
  }
  dst[w] = word;
}
