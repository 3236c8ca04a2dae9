// Strong integer id types, so that a ZoneId cannot be passed where a
// CellIndex is expected.
//
//   struct CellTag {};
//   using CellIndex = StrongId<CellTag, uint32_t>;
//   CellIndex c(42);
//   uint32_t raw = c.value();
#ifndef ZONEPATH_BASE_STRONG_ID_H_
#define ZONEPATH_BASE_STRONG_ID_H_

#include <compare>
#include <cstdint>
#include <limits>
#include <utility>

namespace zonepath {

template <typename Tag, typename T>
class StrongId {
 public:
  using ValueType = T;
  // The reserved "no id" value.
  static constexpr T kInvalidValue = std::numeric_limits<T>::max();

  constexpr StrongId() = default;
  constexpr explicit StrongId(T value) : value_(value) {}

  static constexpr StrongId Invalid() { return StrongId(); }
  constexpr T value() const { return value_; }
  constexpr bool valid() const { return value_ != kInvalidValue; }

  friend constexpr auto operator<=>(StrongId, StrongId) = default;

  template <typename H>
  friend H AbslHashValue(H h, StrongId id) {
    return H::combine(std::move(h), id.value_);
  }

 private:
  T value_ = kInvalidValue;
};

}  // namespace zonepath

#endif  // ZONEPATH_BASE_STRONG_ID_H_
