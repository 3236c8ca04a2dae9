// Random grids for property tests, reproducible from a seed.
#ifndef ZONEPATH_TESTS_SUPPORT_RANDOM_GRIDS_H_
#define ZONEPATH_TESTS_SUPPORT_RANDOM_GRIDS_H_

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "zonepath/grid/grid.h"

namespace zonepath::testing {

struct RandomGridSpec {
  int width;
  int height;
  double blocked;  // probability a cell is blocked
  int max_cost;    // passable costs drawn from 1..max_cost
};

inline Grid RandomGrid(uint64_t seed, const RandomGridSpec& spec) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  std::uniform_int_distribution<int> cost(1, spec.max_cost);
  std::vector<uint8_t> costs(static_cast<size_t>(spec.width) * spec.height);
  for (uint8_t& c : costs) {
    c = unit(rng) < spec.blocked ? 0 : static_cast<uint8_t>(cost(rng));
  }
  return *Grid::Create(spec.width, spec.height, std::move(costs));
}

// `grid` with every passable cell costing `cost` (1..255).
inline Grid OneCostGrid(const Grid& grid, uint8_t cost) {
  std::vector<uint8_t> costs = grid.CostVector();
  for (uint8_t& c : costs) {
    if (c != kBlocked) c = cost;
  }
  return *Grid::Create(grid.width(), grid.height(), std::move(costs));
}

// A spec varying with the seed: sizes 1..40, densities 0..45%, unit or
// weighted costs.
inline RandomGridSpec SpecForSeed(uint64_t seed) {
  std::mt19937_64 rng(seed * 7919 + 1);
  return {1 + static_cast<int>(rng() % 40), 1 + static_cast<int>(rng() % 40),
          static_cast<double>(rng() % 46) / 100.0,
          (rng() % 2 == 0) ? 1 : 1 + static_cast<int>(rng() % 9)};
}

// A random passable cell, or {-1,-1} if there is none.
inline Point RandomPassable(const Grid& grid, std::mt19937_64& rng) {
  if (grid.passable_count() == 0) return {-1, -1};
  while (true) {
    Point p{static_cast<int32_t>(rng() % grid.width()),
            static_cast<int32_t>(rng() % grid.height())};
    if (grid.passable(p)) return p;
  }
}

// `count` pairs of random passable cells (the grid must have one).
inline std::vector<std::pair<Point, Point>> RandomPairs(const Grid& grid,
                                                        int count,
                                                        uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::pair<Point, Point>> pairs;
  for (int i = 0; i < count; ++i) {
    const Point s = RandomPassable(grid, rng);
    pairs.push_back({s, RandomPassable(grid, rng)});
  }
  return pairs;
}

}  // namespace zonepath::testing

#endif  // ZONEPATH_TESTS_SUPPORT_RANDOM_GRIDS_H_
