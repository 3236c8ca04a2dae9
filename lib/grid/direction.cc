#include "zonepath/grid/direction.h"

namespace zonepath {
namespace {
constexpr std::array<absl::string_view, 8> kNames = {"N", "NE", "E", "SE",
                                                     "S", "SW", "W", "NW"};
}  // namespace

absl::string_view DirectionName(Direction d) {
  return kNames[static_cast<int>(d)];
}

std::optional<Direction> ParseDirection(absl::string_view name) {
  for (int i = 0; i < kDirectionCount; ++i) {
    if (kNames[i] == name) return static_cast<Direction>(i);
  }
  return std::nullopt;
}

}  // namespace zonepath
