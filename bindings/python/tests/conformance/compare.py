"""An output against its expected data under the case's tolerance, as the upstream harness, the
C++ runner (tools/conformance/compare.cpp) and the JS replay do: ULP or ATOL, float16 through
to_half(), integers as exact differences, scalar fills checked on their first 1000 elements."""
import math
import numpy as np

from .tensor_data import (DTYPES, INTEGER, element_count, float32, half_to_number, to_half, to_int,
                          to_number)

MAXIMUM_INDEX_TO_VALIDATE = 1000


def float32_bits(value):
    """A float32 as a sign-magnitude integer (upstream getBitwise)."""
    raw = int(float32(value).view(np.uint32))
    magnitude = raw & 0x7FFFFFFF
    return -magnitude if raw >> 31 else magnitude


def elements(data_type, raw):
    if data_type in ("int4", "uint4"):
        out = []
        for byte in raw:
            for nibble in (byte & 0xF, byte >> 4):
                out.append(nibble - 16 if data_type == "int4" and nibble & 0x8 else nibble)
        return out
    return np.frombuffer(raw, DTYPES[data_type]).tolist()


def is_integral(value):
    if isinstance(value, str) and INTEGER.match(value):
        return True
    number = to_number(value)
    return math.isfinite(number) and math.trunc(number) == number


def same(actual, expected):
    return actual == expected or (math.isnan(actual) and math.isnan(expected))


def element_passes(data_type, got, expected_value, tolerance):
    kind, limit = tolerance["kind"], tolerance["value"]
    if kind == "atol":
        actual = half_to_number(got) if data_type == "float16" else float(got)
        expected = to_number(expected_value)
        return same(actual, expected) or abs(actual - expected) <= limit
    if data_type == "float32":
        expected = to_number(expected_value)
        if same(got, expected):
            return True
        return abs(float32_bits(got) - float32_bits(expected)) <= limit
    if data_type == "float16":
        expected = to_number(expected_value)
        if same(half_to_number(got), expected):
            return True
        wanted = to_half(expected)
        if (got & 0x7FFF) == 0 and (wanted & 0x7FFF) == 0:
            return True
        return abs(got - wanted) <= limit
    if not is_integral(expected_value):
        return abs(float(got) - to_number(expected_value)) <= limit
    expected = to_int(expected_value)
    if data_type == "uint64":
        expected &= (1 << 64) - 1
    elif data_type == "int64":
        expected &= (1 << 64) - 1
        if expected >= 1 << 63:
            expected -= 1 << 64
    return abs(int(got) - expected) <= limit


def compare_output(expected, raw, tolerance):
    """None when `raw` (the output's bytes) matches `expected`; otherwise what differs."""
    count = element_count(expected["shape"])
    values = elements(expected["dataType"], raw)
    fill = not isinstance(expected["data"], list)
    checked = min(count, MAXIMUM_INDEX_TO_VALIDATE) if fill and count > 1 else count
    mismatches, first = 0, None
    for i in range(checked):
        value = expected["data"] if fill else expected["data"][i]
        if element_passes(expected["dataType"], values[i], value, tolerance):
            continue
        mismatches += 1
        if first is None:
            first = f"[{i}] got {values[i]}, expected {value}"
    if not mismatches:
        return None
    return (f"{mismatches} of {checked} elements differ, first {first} "
            f"(tolerance {tolerance['value']} {tolerance['kind']})")
