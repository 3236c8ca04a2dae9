#include "zonepath/grid/grid.h"

#include <map>
#include <queue>
#include <random>

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

// Breadth-first flood fill as the reference for component labels.
std::vector<int> ReferenceComponents(const Grid& grid) {
  std::vector<int> label(grid.cell_count(), -1);
  int next = 0;
  for (int y = 0; y < grid.height(); ++y) {
    for (int x = 0; x < grid.width(); ++x) {
      if (!grid.passable({x, y}) || label[grid.Index({x, y}).value()] >= 0) {
        continue;
      }
      std::queue<Point> queue;
      queue.push({x, y});
      label[grid.Index({x, y}).value()] = next;
      while (!queue.empty()) {
        Point p = queue.front();
        queue.pop();
        for (Direction d : kAllDirections) {
          if (!CanStep(grid, p, d, Connectivity::kEight)) continue;
          Point q = Step(p, d);
          if (label[grid.Index(q).value()] < 0) {
            label[grid.Index(q).value()] = next;
            queue.push(q);
          }
        }
      }
      ++next;
    }
  }
  return label;
}

TEST(GridTest, ComponentsMatchFloodFillOnRandomGrids) {
  for (uint64_t seed = 0; seed < 300; ++seed) {
    const Grid grid = testing::RandomGrid(seed, testing::SpecForSeed(seed));
    const std::vector<int> reference = ReferenceComponents(grid);
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
      const std::vector<int> reference = ReferenceComponents(next);
      std::map<uint32_t, int> to_reference;
      std::map<int, uint32_t> from_reference;
      for (int64_t i = 0; i < next.cell_count(); ++i) {
        const Point p = next.ToPoint(CellIndex(static_cast<uint32_t>(i)));
        const uint32_t label = next.component(p);
        ASSERT_EQ(label == Grid::kNoComponent, reference[i] < 0)
            << "seed " << seed << " " << PointString(p);
        if (reference[i] < 0) continue;
        ASSERT_LT(label, next.component_count());
        auto [a, fresh_a] = to_reference.emplace(label, reference[i]);
        auto [b, fresh_b] = from_reference.emplace(reference[i], label);
        ASSERT_EQ(a->second, reference[i])
            << "seed " << seed << " batch " << batch << ": label " << label
            << " spans two components\n"
            << testing::GridToText(next);
        ASSERT_EQ(b->second, label) << "seed " << seed << " batch " << batch
                                    << ": one component has two labels\n"
                                    << testing::GridToText(next);
      }
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
