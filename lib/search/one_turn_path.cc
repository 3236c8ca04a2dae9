#include "zonepath/search/one_turn_path.h"

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <utility>

namespace zonepath {
namespace {

// Walks `runs` from a: their cost, or nullopt as soon as a step is illegal
// or the cost passes `limit`.
std::optional<double> Walk(const Grid& grid, Connectivity connectivity, Point a,
                           const Run* runs, int count, double limit) {
  double cost = 0;
  Point p = a;
  for (int r = 0; r < count; ++r) {
    for (uint32_t i = 0; i < runs[r].count; ++i) {
      const Point q = Step(p, runs[r].direction);
      if (!CanStep(grid, p, runs[r].direction, connectivity)) {
        return std::nullopt;
      }
      cost += StepCost(runs[r].direction, grid.cost(p), grid.cost(q));
      if (cost > limit) return std::nullopt;
      p = q;
    }
  }
  return cost;
}

}  // namespace

std::optional<double> AppendOneTurnPath(const Grid& grid,
                                        Connectivity connectivity, Point a,
                                        Point b, double max_cost,
                                        RunLengthPath* path) {
  const int32_t dx = b.x - a.x, dy = b.y - a.y;
  const int sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
  const uint32_t ax = static_cast<uint32_t>(std::abs(dx));
  const uint32_t ay = static_cast<uint32_t>(std::abs(dy));
  // The way's runs, diagonal (or x) first; an empty run is left out (its
  // direction would be (0, 0)), and a way of one run is tried once.
  Run runs[2];
  int count = 0;
  const auto add = [&](int step_x, int step_y, uint32_t steps) {
    if (steps > 0) runs[count++] = {*DirectionFromDelta(step_x, step_y), steps};
  };
  if (connectivity == Connectivity::kFour) {
    add(sx, 0, ax);
    add(0, sy, ay);
  } else {
    const uint32_t diagonal = ax < ay ? ax : ay;
    add(sx, sy, diagonal);
    add(ax > ay ? sx : 0, ax > ay ? 0 : sy, (ax > ay ? ax : ay) - diagonal);
  }
  // One float ulp (2^-23) relative: abstract edge costs are floats rounded
  // from the exact least cost, so the least-cost way may sum to a hair
  // above its edge; a way dearer than that is not taken.
  const double limit = max_cost + 0x1p-23 * (max_cost > 1 ? max_cost : 1);
  if (!(limit >= 0)) return std::nullopt;  // also a NaN limit: no way
  if (count == 0) return 0.0;              // a == b: the empty way
  for (int order = 0; order < (count == 2 ? 2 : 1); ++order) {
    if (order == 1) std::swap(runs[0], runs[1]);
    const std::optional<double> cost =
        Walk(grid, connectivity, a, runs, count, limit);
    if (cost.has_value()) {
      for (int r = 0; r < count; ++r) {
        path->Append(runs[r].direction, runs[r].count);
      }
      return cost;
    }
  }
  return std::nullopt;
}

}  // namespace zonepath
