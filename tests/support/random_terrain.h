// Random terrains of types 0 (blocked) .. 4 for the class-aware tests,
// reproducible from the seed, and their text for failure messages.
#ifndef ZONEPATH_TESTS_SUPPORT_RANDOM_TERRAIN_H_
#define ZONEPATH_TESTS_SUPPORT_RANDOM_TERRAIN_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "zonepath/grid/grid.h"

namespace zonepath::testing {

// Sides min_side .. min_side + side_choices - 1; a blocked share below
// blocked_choices percent; other cells types 1..4.
inline Grid RandomTerrain(uint64_t seed, int min_side, int side_choices,
                          int blocked_choices) {
  std::mt19937_64 rng(seed);
  const int w = min_side + static_cast<int>(rng() % side_choices);
  const int h = min_side + static_cast<int>(rng() % side_choices);
  const double blocked = static_cast<double>(rng() % blocked_choices) / 100.0;
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<uint8_t> types(static_cast<size_t>(w) * h);
  for (uint8_t& t : types) {
    t = unit(rng) < blocked ? 0 : static_cast<uint8_t>(1 + rng() % 4);
  }
  return *Grid::Create(w, h, std::move(types));
}

// One line per row, one digit (the type) per cell.
inline std::string TerrainText(const Grid& grid) {
  std::string out;
  for (int y = 0; y < grid.height(); ++y) {
    for (int x = 0; x < grid.width(); ++x) {
      out += static_cast<char>('0' + grid.cost(Point{x, y}));
    }
    out += '\n';
  }
  return out;
}

}  // namespace zonepath::testing

#endif  // ZONEPATH_TESTS_SUPPORT_RANDOM_TERRAIN_H_
