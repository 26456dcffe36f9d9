"""Tensor data of the WPT conformance vectors (../shared/conformance/README.md): decoding the JSON
values, and encoding them into the numpy array WebNN takes for each data type."""
import math
import re
import numpy as np

SPECIAL = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf, "-0": -0.0}
INTEGER = re.compile(r"^-?\d+$")
DTYPES = {
    "float32": np.float32, "float16": np.uint16, "int32": np.int32, "uint32": np.uint32,
    "int64": np.int64, "uint64": np.uint64, "int8": np.int8, "uint8": np.uint8,
    "int4": np.uint8, "uint4": np.uint8,
}
BITS = {"int32": 32, "uint32": 32, "int8": 8, "uint8": 8, "int64": 64, "uint64": 64}


def to_number(value):
    """A JSON value as a float ("NaN", "Infinity", "-Infinity", "-0" and decimal strings too)."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        if value in SPECIAL:
            return SPECIAL[value]
        try:
            if value.strip():
                return float(value)
        except ValueError:
            pass
    raise ValueError(f"not a number: {value!r}")


def to_int(value):
    """A JSON value as an int (the harness's BigInt(): decimal strings exact, numbers truncated,
    non-finite values 0)."""
    if isinstance(value, str) and INTEGER.match(value):
        return int(value)
    number = to_number(value)
    return int(number) if math.isfinite(number) else 0


def to_half(value):
    """The harness's toHalf(): James Tursa's float32 -> float16 rounding (bit-exact with the
    upstream harness, the C++ runner and the JS replay)."""
    x = int(float32(value).view(np.int32))
    bits = (x >> 16) & 0x8000
    m = (x >> 12) & 0x07FF
    e = (x >> 23) & 0xFF
    if e < 103:
        return bits
    if e > 142:
        bits |= 0x7C00
        bits |= 1 if e == 255 and (x & 0x007FFFFF) else 0
        return bits
    if e < 113:
        m |= 0x0800
        bits |= (m >> (114 - e)) + ((m >> (113 - e)) & 1)
        return bits
    bits |= ((e - 112) << 10) | (m >> 1)
    bits += m & 1
    return bits & 0xFFFF


def float32(value):
    """A number rounded to float32 as a Float32Array stores it (out of range: infinity)."""
    with np.errstate(over="ignore"):
        return np.float32(value)


def half_to_number(bits):
    sign = -1.0 if bits & 0x8000 else 1.0
    exponent = (bits >> 10) & 0x1F
    mantissa = bits & 0x3FF
    if exponent == 0:
        return sign * mantissa * 2.0 ** -24
    if exponent == 0x1F:
        return math.nan if mantissa else sign * math.inf
    return sign * (mantissa + 1024) * 2.0 ** (exponent - 25)


def element_count(shape):
    count = 1
    for d in shape:
        count *= d
    return count


def wrap(value, data_type):
    """An int modulo 2^bits, as the typed array of `data_type` stores it."""
    bits = BITS[data_type]
    value &= (1 << bits) - 1
    if not data_type.startswith("u") and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def encode(tensor):
    """The numpy array of `tensor` ({dataType, shape, data}); a single value fills the shape."""
    count = element_count(tensor["shape"])
    data = tensor["data"]
    values = data if isinstance(data, list) else [data] * count
    data_type = tensor["dataType"]
    if data_type in ("int4", "uint4"):
        out = np.zeros((count + 1) // 2, np.uint8)
        for i in range(count):
            nibble = to_int(values[i]) & 0xF
            out[i >> 1] |= nibble if i % 2 == 0 else nibble << 4
        return out
    if data_type == "float16":
        return np.array([to_half(to_number(v)) for v in values[:count]], np.uint16)
    if data_type == "float32":
        return np.array([to_number(v) for v in values[:count]], np.float32)
    if data_type in ("int64", "uint64"):
        return np.array([wrap(to_int(v), data_type) for v in values[:count]], DTYPES[data_type])
    # Other integers: the JS replay's Number(BigInt.asIntN(64, v)) stored into a typed array.
    return np.array([wrap(wrap(to_int(v), "int64"), data_type) for v in values[:count]],
                    DTYPES[data_type])
