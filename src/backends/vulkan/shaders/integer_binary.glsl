// The element-wise binary ops on 32-bit integers (binary_int.comp, binary_narrow.comp): op codes
// 0 add, 1 sub, 2 mul, 3 div, 4 max, 5 min, 6 pow, 7 prelu (y: the slope). Arithmetic wraps;
// division truncates, by zero gives 0, smallest / -1 gives the smallest; pow is exact repeated
// multiplication (a negative exponent gives 1 / x^n truncated: 0 unless x is 1 or -1), as the
// reference's.

uint integerPower(uint x, uint y, bool signedType) {
  if (signedType && int(y) < 0) {
    if (x == 1u) return 1u;
    if (x == 0xffffffffu) return (y & 1u) == 0u ? 1u : 0xffffffffu;
    return 0u;
  }
  uint r = 1u;
  while (y != 0u) {
    if ((y & 1u) != 0u) r *= x;
    x *= x;
    y >>= 1;
  }
  return r;
}

uint integerBinary(uint op, uint x, uint y, bool signedType) {
  switch (op) {
    case 0u: return x + y;
    case 1u: return x - y;
    case 2u: return x * y;
    case 3u:
      if (y == 0u) return 0u;
      if (!signedType) return x / y;
      return (x == 0x80000000u && y == 0xffffffffu) ? x : uint(int(x) / int(y));
    case 4u: return signedType ? uint(max(int(x), int(y))) : max(x, y);
    case 5u: return signedType ? uint(min(int(x), int(y))) : min(x, y);
    case 6u: return integerPower(x, y, signedType);
    default: return (signedType && int(x) < 0) ? y * x : x;  // prelu
  }
}
