#include "zonepath/grid/grid.h"

#include <random>
#include <string>

#include "component_oracle.h"
#include "dijkstra_oracle.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/grid/direction.h"
#include "zonepath/grid/moves.h"

namespace zonepath {
namespace {

TEST(DirectionTest, StepsNamesAndOpposites) {
  EXPECT_EQ(Step({5, 5}, Direction::kN), (Point{5, 4}));
  EXPECT_EQ(Step({5, 5}, Direction::kE), (Point{6, 5}));
  EXPECT_EQ(Step({5, 5}, Direction::kSW), (Point{4, 6}));
  for (Direction d : kAllDirections) {
    EXPECT_EQ(ParseDirection(DirectionName(d)), d);
    EXPECT_EQ(Opposite(Opposite(d)), d);
    EXPECT_EQ(Step(Step({0, 0}, d), Opposite(d)), (Point{0, 0}));
    EXPECT_EQ(DirectionFromDelta(Dx(d), Dy(d)), d);
    EXPECT_EQ(IsDiagonal(d), Dx(d) != 0 && Dy(d) != 0);
  }
  EXPECT_FALSE(ParseDirection("X").has_value());
  EXPECT_FALSE(DirectionFromDelta(0, 0).has_value());
}

TEST(GridTest, RejectsBadSizes) {
  EXPECT_FALSE(Grid::Create(0, 5, {}).ok());
  EXPECT_FALSE(Grid::Create(-1, 5, {}).ok());
  EXPECT_FALSE(Grid::Create(Grid::kMaxSide + 1, 1, {}).ok());
  EXPECT_FALSE(Grid::CheckSize(Grid::kMaxSide, Grid::kMaxSide).ok());
  EXPECT_TRUE(Grid::CheckSize(32768, 32768).ok());
  EXPECT_FALSE(Grid::Create(2, 2, std::vector<uint8_t>(3, 1)).ok());
}

TEST(GridTest, CostsAndMinCost) {
  absl::StatusOr<Grid> grid = Grid::Create(3, 2, {0, 3, 5, 4, 0, 9});
  ASSERT_TRUE(grid.ok());
  EXPECT_EQ(grid->min_cost(), 3);
  EXPECT_EQ(grid->passable_count(), 4);
  EXPECT_FALSE(grid->passable({0, 0}));
  EXPECT_EQ(grid->cost({2, 1}), 9);
  EXPECT_EQ(grid->ToPoint(grid->Index({2, 1})), (Point{2, 1}));
}

using testing::FloodFillComponents;

TEST(GridTest, ComponentsMatchFloodFillOnRandomGrids) {
  for (uint64_t seed = 0; seed < 300; ++seed) {
    const Grid grid = testing::RandomGrid(seed, testing::SpecForSeed(seed));
    const std::vector<int> reference = FloodFillComponents(grid);
    int count = 0;
    for (int v : reference) count = std::max(count, v + 1);
    ASSERT_EQ(grid.component_count(), static_cast<uint32_t>(count))
        << "seed " << seed;
    for (int64_t i = 0; i < grid.cell_count(); ++i) {
      for (int64_t j = i; j < grid.cell_count(); j += 7) {
        const Point a = grid.ToPoint(CellIndex(i)),
                    b = grid.ToPoint(CellIndex(j));
        const bool same = reference[i] >= 0 && reference[i] == reference[j];
        ASSERT_EQ(grid.SameComponent(a, b), same)
            << "seed " << seed << " " << PointString(a) << " "
            << PointString(b);
      }
    }
  }
}

// WithCosts keeps labels local where it can; whatever it does, the labels
// must partition the open cells exactly as a flood fill of the new grid.
TEST(GridTest, WithCostsComponentsMatchFloodFill) {
  int same_count = 0, new_count = 0;  // both kinds of batch occur
  for (uint64_t seed = 0; seed < 200; ++seed) {
    Grid grid = testing::RandomGrid(seed, testing::SpecForSeed(seed));
    std::mt19937_64 rng(seed);
    for (int batch = 0; batch < 6; ++batch) {
      std::vector<Grid::CellCost> changes;
      const int n = 1 + static_cast<int>(rng() % 4);
      for (int i = 0; i < n; ++i) {
        changes.push_back(
            {CellIndex(static_cast<uint32_t>(rng() % grid.cell_count())),
             static_cast<uint8_t>(rng() % 3 == 0 ? 0 : 1 + rng() % 3)});
      }
      Grid next = grid.WithCosts(changes);
      testing::ExpectLabelsMatchFloodFill(
          next, "seed " + std::to_string(seed) + " batch " +
                    std::to_string(batch) + "\n" + testing::GridToText(next));
      if (HasFatalFailure()) return;
      if (next.component_count() == grid.component_count()) {
        ++same_count;
      } else {
        ++new_count;
      }
      grid = std::move(next);
    }
  }
  EXPECT_GT(same_count, 0);
  EXPECT_GT(new_count, 0);
}

TEST(GridTest, DiagonalGapDoesNotConnect) {
  // .@
  // @.   the two open cells touch only at a corner: not connected.
  absl::StatusOr<Grid> grid = Grid::Create(2, 2, {1, 0, 0, 1});
  ASSERT_TRUE(grid.ok());
  EXPECT_FALSE(grid->SameComponent({0, 0}, {1, 1}));
  EXPECT_EQ(grid->component_count(), 2u);
  EXPECT_FALSE(CanStep(*grid, {0, 0}, Direction::kSE, Connectivity::kEight));
}

TEST(MovesTest, StepCostRule) {
  EXPECT_DOUBLE_EQ(StepCost(Direction::kE, 1, 1), 1.0);
  EXPECT_DOUBLE_EQ(StepCost(Direction::kNE, 1, 1), kSqrt2);
  EXPECT_DOUBLE_EQ(StepCost(Direction::kS, 2, 4), 3.0);
  EXPECT_DOUBLE_EQ(StepCost(Direction::kSW, 2, 4), 3.0 * kSqrt2);
  EXPECT_DOUBLE_EQ(HeuristicCost({0, 0}, {3, 5}, Connectivity::kEight, 1),
                   2 + 3 * kSqrt2);
  EXPECT_DOUBLE_EQ(HeuristicCost({0, 0}, {3, 5}, Connectivity::kFour, 2), 16);
}

}  // namespace
}  // namespace zonepath
