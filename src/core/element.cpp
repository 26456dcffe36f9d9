#include "core/element.h"

namespace webnn {
namespace {

template <class T>
T read(const std::byte* base, uint64_t index) {
  T value;
  std::memcpy(&value, base + index * sizeof(T), sizeof(T));
  return value;
}

template <class T>
void write(std::byte* base, uint64_t index, T value) {
  std::memcpy(base + index * sizeof(T), &value, sizeof(T));
}

int loadNibble(const std::byte* base, uint64_t index, bool isSignedNibble) {
  const auto byte = static_cast<uint8_t>(base[index / 2]);
  int nibble = (index % 2 == 0) ? (byte & 0x0f) : (byte >> 4);
  if (isSignedNibble && nibble >= 8) nibble -= 16;
  return nibble;
}

void storeNibble(std::byte* base, uint64_t index, int value) {
  auto byte = static_cast<uint8_t>(base[index / 2]);
  const auto nibble = static_cast<uint8_t>(value & 0x0f);
  byte = (index % 2 == 0) ? static_cast<uint8_t>((byte & 0xf0) | nibble)
                          : static_cast<uint8_t>((byte & 0x0f) | (nibble << 4));
  base[index / 2] = static_cast<std::byte>(byte);
}

double clampTruncate(double value, double low, double high) {
  if (std::isnan(value)) return 0;
  return std::fmin(std::fmax(std::trunc(value), low), high);
}

}  // namespace

double loadElement(MLOperandDataType type, const std::byte* base, uint64_t index) {
  switch (type) {
    case MLOperandDataType::Int4:
      return loadNibble(base, index, true);
    case MLOperandDataType::Uint4:
      return loadNibble(base, index, false);
    default:
      return visitDataType(type, [&]<class T>(TypeTag<T>) -> double {
        if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, Uint4>) {
          return 0;
        } else {
          return toDouble(read<T>(base, index));
        }
      });
  }
}

void storeElement(MLOperandDataType type, std::byte* base, uint64_t index, double value) {
  switch (type) {
    case MLOperandDataType::Int4:
      storeNibble(base, index, static_cast<int>(clampTruncate(value, -8, 7)));
      return;
    case MLOperandDataType::Uint4:
      storeNibble(base, index, static_cast<int>(clampTruncate(value, 0, 15)));
      return;
    default:
      visitDataType(type, [&]<class T>(TypeTag<T>) {
        if constexpr (!std::is_same_v<T, Int4> && !std::is_same_v<T, Uint4>) {
          write<T>(base, index, fromDouble<T>(value));
        }
      });
  }
}

int64_t loadInteger(MLOperandDataType type, const std::byte* base, uint64_t index) {
  switch (type) {
    case MLOperandDataType::Int64:
      return read<int64_t>(base, index);
    case MLOperandDataType::Uint64:
      return static_cast<int64_t>(read<uint64_t>(base, index));
    case MLOperandDataType::Int32:
      return read<int32_t>(base, index);
    case MLOperandDataType::Uint32:
      return read<uint32_t>(base, index);
    case MLOperandDataType::Int8:
      return read<int8_t>(base, index);
    case MLOperandDataType::Uint8:
      return read<uint8_t>(base, index);
    case MLOperandDataType::Int4:
      return loadNibble(base, index, true);
    case MLOperandDataType::Uint4:
      return loadNibble(base, index, false);
    default:
      return static_cast<int64_t>(loadElement(type, base, index));
  }
}

void storeInteger(MLOperandDataType type, std::byte* base, uint64_t index, int64_t value) {
  switch (type) {
    case MLOperandDataType::Int64:
      write<int64_t>(base, index, value);
      return;
    case MLOperandDataType::Uint64:
      write<uint64_t>(base, index, static_cast<uint64_t>(value));
      return;
    case MLOperandDataType::Int32:
      write<int32_t>(base, index, static_cast<int32_t>(value));
      return;
    case MLOperandDataType::Uint32:
      write<uint32_t>(base, index, static_cast<uint32_t>(value));
      return;
    case MLOperandDataType::Int8:
      write<int8_t>(base, index, static_cast<int8_t>(value));
      return;
    case MLOperandDataType::Uint8:
      write<uint8_t>(base, index, static_cast<uint8_t>(value));
      return;
    case MLOperandDataType::Int4:
    case MLOperandDataType::Uint4:
      storeNibble(base, index, static_cast<int>(value));
      return;
    default:
      storeElement(type, base, index, static_cast<double>(value));
      return;
  }
}

void storeNumber(MLOperandDataType type, std::byte* base, uint64_t index, const MLNumber& value) {
  switch (type) {
    case MLOperandDataType::Int64:
      write<int64_t>(base, index, value.toInt64());
      return;
    case MLOperandDataType::Uint64:
      write<uint64_t>(base, index, value.toUint64());
      return;
    default:
      if (value.isInteger() && !isFloatingPoint(type)) {
        // Every other integer type fits int64; saturate there first, then to the type's range.
        const int64_t integer =
            value.kind() == MLNumber::Kind::Uint64 && value.toUint64() > (1ull << 62)
                ? (1ll << 62)
                : value.toInt64();
        storeElement(type, base, index, static_cast<double>(integer));
        return;
      }
      storeElement(type, base, index, value.toDouble());
  }
}

}  // namespace webnn
