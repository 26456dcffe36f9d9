#include <cmath>
#include <limits>

#include "webnn/number.h"

namespace webnn {

double MLNumber::toDouble() const {
  switch (kind_) {
    case Kind::Double:
      return double_;
    case Kind::Int64:
      return static_cast<double>(int64_);
    case Kind::Uint64:
      return static_cast<double>(uint64_);
  }
  return double_;
}

int64_t MLNumber::toInt64() const {
  switch (kind_) {
    case Kind::Int64:
      return int64_;
    case Kind::Uint64:
      return uint64_ > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
                 ? std::numeric_limits<int64_t>::max()
                 : static_cast<int64_t>(uint64_);
    case Kind::Double:
      if (std::isnan(double_)) return 0;
      // 2^63 is exactly representable; every double below it converts without overflow.
      if (double_ >= 9223372036854775808.0) return std::numeric_limits<int64_t>::max();
      if (double_ <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
      return static_cast<int64_t>(double_);
  }
  return 0;
}

uint64_t MLNumber::toUint64() const {
  switch (kind_) {
    case Kind::Uint64:
      return uint64_;
    case Kind::Int64:
      return int64_ < 0 ? 0 : static_cast<uint64_t>(int64_);
    case Kind::Double:
      if (std::isnan(double_) || double_ <= 0) return 0;
      if (double_ >= 18446744073709551616.0) return std::numeric_limits<uint64_t>::max();
      return static_cast<uint64_t>(double_);
  }
  return 0;
}

bool MLNumber::operator==(const MLNumber& other) const {
  if (kind_ == Kind::Double || other.kind_ == Kind::Double) return toDouble() == other.toDouble();
  if (kind_ == other.kind_)
    return kind_ == Kind::Int64 ? int64_ == other.int64_ : uint64_ == other.uint64_;
  const MLNumber& signedOne = kind_ == Kind::Int64 ? *this : other;
  const MLNumber& unsignedOne = kind_ == Kind::Int64 ? other : *this;
  return signedOne.int64_ >= 0 && static_cast<uint64_t>(signedOne.int64_) == unsignedOne.uint64_;
}

}  // namespace webnn
