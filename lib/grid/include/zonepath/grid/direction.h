// The one Direction enum of zonepath, used by moves, searches and path codecs.
//
// Coordinates: x is the column, y the row, (0,0) the top-left corner, so N
// is y-1 and E is x+1. Directions are numbered clockwise from N; the value
// fits in 3 bits, which path codecs rely on.
//
//   Point next = Step(p, Direction::kNE);      // {p.x + 1, p.y - 1}
//   bool diagonal = IsDiagonal(Direction::kNE);  // true
#ifndef ZONEPATH_GRID_DIRECTION_H_
#define ZONEPATH_GRID_DIRECTION_H_

#include <array>
#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"

namespace zonepath {

enum class Direction : uint8_t { kN, kNE, kE, kSE, kS, kSW, kW, kNW };

inline constexpr int kDirectionCount = 8;
inline constexpr std::array<Direction, 8> kAllDirections = {
    Direction::kN, Direction::kNE, Direction::kE, Direction::kSE,
    Direction::kS, Direction::kSW, Direction::kW, Direction::kNW};

inline constexpr std::array<int, 8> kDirectionDx = {0, 1, 1, 1, 0, -1, -1, -1};
inline constexpr std::array<int, 8> kDirectionDy = {-1, -1, 0, 1, 1, 1, 0, -1};

constexpr int Dx(Direction d) { return kDirectionDx[static_cast<int>(d)]; }
constexpr int Dy(Direction d) { return kDirectionDy[static_cast<int>(d)]; }
constexpr bool IsDiagonal(Direction d) {
  return (static_cast<int>(d) & 1) != 0;
}
constexpr Direction Opposite(Direction d) {
  return static_cast<Direction>((static_cast<int>(d) + 4) & 7);
}
// Direction rotated clockwise by `eighths` steps of 45 degrees.
constexpr Direction Rotate(Direction d, int eighths) {
  return static_cast<Direction>((static_cast<int>(d) + eighths) & 7);
}

// "N", "NE", ... "NW".
absl::string_view DirectionName(Direction d);
std::optional<Direction> ParseDirection(absl::string_view name);
// The direction of the unit step (dx, dy), each in {-1, 0, 1}, not both 0;
// nullopt for any other (dx, dy). Inline: smoothers call it per run.
inline std::optional<Direction> DirectionFromDelta(int dx, int dy) {
  // [dy + 1][dx + 1]; the centre is never read.
  static constexpr Direction kByDelta[3][3] = {
      {Direction::kNW, Direction::kN, Direction::kNE},
      {Direction::kW, Direction::kN, Direction::kE},
      {Direction::kSW, Direction::kS, Direction::kSE}};
  if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) {
    return std::nullopt;
  }
  return kByDelta[dy + 1][dx + 1];
}

}  // namespace zonepath

#endif  // ZONEPATH_GRID_DIRECTION_H_
