// Movement rules: which steps are legal and what they cost.
//
// 8-connected (default) or 4-connected. A diagonal step may not cut a corner:
// both orthogonally adjacent cells must be passable. The cost of a step is the
// mean of the terrain costs of the two cells it joins, times 1 for a straight
// step and sqrt(2) for a diagonal one. The rule is symmetric (A->B costs the
// same as B->A), which lets the offline build compute each abstract edge once,
// and on unit-cost maps it gives exactly 1 and sqrt(2), the MovingAI rules.
//
//   if (CanStep(grid, p, Direction::kNE, Connectivity::kEight)) {
//     double c = StepCost(grid, p, Direction::kNE);
//   }
#ifndef ZONEPATH_GRID_MOVES_H_
#define ZONEPATH_GRID_MOVES_H_

#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"
#include "zonepath/grid/grid.h"

namespace zonepath {

inline constexpr double kSqrt2 = 1.4142135623730950488;

enum class Connectivity : uint8_t { kEight, kFour };

absl::string_view ConnectivityName(Connectivity c);
std::optional<Connectivity> ParseConnectivity(absl::string_view name);

// Cost of a step in direction `d` between cells of terrain costs `from` and
// `to` (both passable).
constexpr double StepCost(Direction d, uint8_t from, uint8_t to) {
  const double mean = 0.5 * (static_cast<double>(from) + to);
  return IsDiagonal(d) ? mean * kSqrt2 : mean;
}

// True if a unit on passable cell `p` may step in direction `d`. `Cells`:
// the Grid, or anything that reads its cells the same way (PassableOrFalse,
// passable; e.g. its OpenCellTiles).
template <typename Cells>
inline bool CanStep(const Cells& grid, Point p, Direction d,
                    Connectivity connectivity) {
  const Point q = Step(p, d);
  if (!grid.PassableOrFalse(q)) return false;
  if (!IsDiagonal(d)) return true;
  if (connectivity == Connectivity::kFour) return false;
  return grid.passable({q.x, p.y}) && grid.passable({p.x, q.y});
}

// Bit d (for Direction d) is set if a unit on passable cell `p` may step in
// direction d without leaving `bounds`: orthogonal neighbours must be
// passable, and a diagonal also needs both orthogonal cells it passes (no
// corner cutting). The inner loop of every grid search.
inline uint8_t OpenDirections(const Grid& grid, Point p, const Rect& bounds,
                              Connectivity connectivity) {
  uint8_t open = 0;
  for (int d = 0; d < kDirectionCount; d += 2) {
    const Point q = Step(p, static_cast<Direction>(d));
    if (bounds.Contains(q) && grid.passable(q)) open |= 1 << d;
  }
  if (connectivity == Connectivity::kFour) return open;
  for (int d = 1; d < kDirectionCount; d += 2) {
    if ((open >> (d - 1) & 1) && (open >> ((d + 1) & 7) & 1) &&
        grid.passable(Step(p, static_cast<Direction>(d)))) {
      open |= 1 << d;
    }
  }
  return open;
}

inline double StepCost(const Grid& grid, Point p, Direction d) {
  return StepCost(d, grid.cost(p), grid.cost(Step(p, d)));
}

// Admissible estimate of the cost from a to b on a grid whose cheapest
// passable cell costs `min_cost`: octile distance for 8-connected grids,
// Manhattan for 4-connected ones.
inline double HeuristicCost(Point a, Point b, Connectivity connectivity,
                            double min_cost) {
  const int64_t dx = a.x > b.x ? a.x - b.x : b.x - a.x;
  const int64_t dy = a.y > b.y ? a.y - b.y : b.y - a.y;
  if (connectivity == Connectivity::kFour) {
    return min_cost * static_cast<double>(dx + dy);
  }
  const int64_t lo = dx < dy ? dx : dy;
  const int64_t hi = dx < dy ? dy : dx;
  return min_cost * (static_cast<double>(hi - lo) + kSqrt2 * lo);
}

}  // namespace zonepath

#endif  // ZONEPATH_GRID_MOVES_H_
