// OpenCellTiles (a grid of one cost's open cells in 64 x 64 tiles, which
// planners on large grids read instead of the costs) against the grid it
// was made from: every cell, every step's legality, and the cost it stands
// for; and made only where that one cost holds for every cell.
#include "zonepath/grid/open_cell_tiles.h"

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/base/cow_array.h"
#include "zonepath/grid/moves.h"

namespace zonepath {
namespace {

TEST(OpenCellTilesTest, SameCellsAndStepsAsTheGrid) {
  int64_t open = 0, blocked = 0;
  for (uint64_t seed = 0; seed < 120; ++seed) {
    std::mt19937_64 rng(seed * 613 + 1);
    // Sides across tile edges: 1..300, often 63..65 or 127..129.
    const int32_t edge_sides[] = {63, 64, 65, 127, 128, 129};
    const int32_t width = seed % 2 ? edge_sides[rng() % 6]
                                   : 1 + static_cast<int32_t>(rng() % 300);
    const int32_t height = seed % 3 ? edge_sides[rng() % 6]
                                    : 1 + static_cast<int32_t>(rng() % 300);
    const uint8_t cost = static_cast<uint8_t>(1 + rng() % 200);
    const Grid grid = testing::OneCostGrid(
        testing::RandomGrid(seed, {width, height, 0.3, 1}), cost);
    const std::unique_ptr<const OpenCellTiles> tiles = OpenCellTiles::Of(grid);
    const std::string context = "seed " + std::to_string(seed) + " grid " +
                                std::to_string(width) + "x" +
                                std::to_string(height);
    ASSERT_NE(tiles, nullptr) << context;
    EXPECT_EQ(tiles->width(), width);
    EXPECT_EQ(tiles->height(), height);
    for (int32_t y = -1; y <= height; ++y) {
      for (int32_t x = -1; x <= width; ++x) {
        const Point p{x, y};
        ASSERT_EQ(tiles->InBounds(p), grid.InBounds(p)) << context;
        if (grid.InBounds(p)) {
          ASSERT_EQ(tiles->passable(p), grid.passable(p))
              << context << " cell " << PointString(p);
          ASSERT_EQ(tiles->cost(p), grid.cost(p)) << context;
          (grid.passable(p) ? open : blocked) += 1;
          for (int d = 0; d < 8; ++d) {
            for (const Connectivity c :
                 {Connectivity::kEight, Connectivity::kFour}) {
              ASSERT_EQ(CanStep(*tiles, p, static_cast<Direction>(d), c),
                        CanStep(grid, p, static_cast<Direction>(d), c))
                  << context << " cell " << PointString(p) << " direction "
                  << d;
            }
          }
        }
      }
    }
    // Past the right edge a tile's words are 0.
    const uint32_t last = static_cast<uint32_t>((width - 1) / 64);
    const uint32_t used = static_cast<uint32_t>(width - 64 * last);
    for (int32_t y = 0; y < height; ++y) {
      if (used < 64) {
        ASSERT_EQ(tiles->Word(last, y) >> used, 0u) << context << " row " << y;
      }
    }
  }
  EXPECT_GT(open, 1000000);
  EXPECT_GT(blocked, 400000);
}

// Tiles stand for one cost, so a grid where any passable cell costs
// another (the first cell, the last, or one in between) gets none: the
// cells are read, not the grid's counts.
TEST(OpenCellTilesTest, OnlyWhereEveryPassableCellCostsTheSame) {
  const Grid base = testing::RandomGrid(7, {130, 70, 0.2, 1});
  EXPECT_NE(OpenCellTiles::Of(base), nullptr);
  const std::unique_ptr<const OpenCellTiles> threes =
      OpenCellTiles::Of(testing::OneCostGrid(base, 3));
  ASSERT_NE(threes, nullptr);
  for (const size_t at :
       {size_t{0}, size_t{130 * 35 + 64}, size_t{130 * 70 - 1}}) {
    std::vector<uint8_t> costs = base.CostVector();
    costs[at] = 2;
    const Grid two_costs = *Grid::Create(130, 70, std::move(costs));
    EXPECT_EQ(OpenCellTiles::Of(two_costs), nullptr) << "cell " << at;
  }
  // A grid whose stored cost counts lie (as a crafted world file's may):
  // it claims one cost, but its cells have two, so no tiles.
  std::vector<uint8_t> two = base.CostVector();
  two[130 * 69 + 5] = two[130 * 69 + 5] == kBlocked ? 0 : 2;
  two[17] = 2;
  const Grid honest = *Grid::Create(130, 70, two);
  ASSERT_FALSE(honest.OneCost());
  Grid::StoredComponents stored = honest.Components();
  stored.cost_counts[1] += stored.cost_counts[2];
  stored.cost_counts[2] = 0;
  const absl::StatusOr<Grid> lying = Grid::CreateWithComponents(
      130, 70, CowArray<uint8_t>::FromVector(two), std::move(stored));
  ASSERT_TRUE(lying.ok()) << lying.status();
  ASSERT_TRUE(lying->OneCost());
  EXPECT_EQ(OpenCellTiles::Of(*lying), nullptr);
  // Every cell blocked: one cost vacuously.
  EXPECT_NE(OpenCellTiles::Of(testing::RandomGrid(1, {70, 70, 1.0, 1})),
            nullptr);
}

}  // namespace
}  // namespace zonepath
