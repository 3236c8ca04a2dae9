// Random long queries on a grid, reproducible from a seed, for `mem` and
// `report` when no scenario file says what to plan.
#ifndef ZONEPATH_TOOLS_ZONEPATH_RANDOM_QUERIES_H_
#define ZONEPATH_TOOLS_ZONEPATH_RANDOM_QUERIES_H_

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "absl/status/statusor.h"
#include "zonepath/grid/grid.h"

namespace zonepath::cli {

struct Query {
  Point start, goal;
};

// `count` queries whose endpoints are connected and, when such a pair turns
// up within 200 tries, at least a quarter of the map's larger side apart
// (Chebyshev).
inline absl::StatusOr<std::vector<Query>> RandomLongQueries(const Grid& grid,
                                                            int64_t count,
                                                            uint64_t seed) {
  if (grid.passable_count() == 0) {
    return absl::InvalidArgumentError("the world has no passable cell");
  }
  std::mt19937_64 rng(seed);
  auto random_cell = [&] {
    while (true) {
      const Point p{static_cast<int32_t>(rng() % grid.width()),
                    static_cast<int32_t>(rng() % grid.height())};
      if (grid.passable(p)) return p;
    }
  };
  const int32_t min_distance = std::max(grid.width(), grid.height()) / 4;
  std::vector<Query> queries;
  for (int64_t i = 0; i < count; ++i) {
    const Point s = random_cell();
    Point best = s;
    for (int attempt = 0; attempt < 200; ++attempt) {
      const Point t = random_cell();
      if (!grid.SameComponent(s, t)) continue;
      best = t;
      if (std::max(std::abs(s.x - t.x), std::abs(s.y - t.y)) >= min_distance) {
        break;
      }
    }
    queries.push_back({s, best});
  }
  return queries;
}

}  // namespace zonepath::cli

#endif  // ZONEPATH_TOOLS_ZONEPATH_RANDOM_QUERIES_H_
