// StaircaseMerger: staircases become two runs where that is legal and no
// costlier; blocked corners, other motions and costlier ground are left
// alone; the rewritten path walks to the same state at its reported cost.
#include "zonepath/agents/staircase_merger.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test_cart.h"
#include "zonepath/agents/class_astar.h"

namespace zonepath {
namespace {

AgentClass Cart() { return testing::TestCart(); }

Grid Open(int32_t w, int32_t h) {
  return *Grid::Create(w, h, std::vector<uint8_t>(w * h, 1));
}

AgentPath Parse(const char* runs, Point start, const Grid& terrain,
                const AgentClass& cart) {
  AgentPath path;
  EXPECT_TRUE(ParseAgentRuns(runs, start, Direction::kN, &path).ok());
  const absl::StatusOr<AgentWalk> walk = WalkAgentPath(terrain, cart, path);
  EXPECT_TRUE(walk.ok()) << walk.status();
  if (walk.ok()) path.set_cost(walk->cost);
  return path;
}

TEST(StaircaseMergerTest, MergesAStaircaseOnOpenGround) {
  const Grid terrain = Open(40, 40);
  const AgentClass cart = Cart();
  AgentPath path = Parse("R1,E10,R1,S10,L1,E10,R1,S10", {2, 2}, terrain, cart);
  const double before = path.cost();  // 40 steps + 4 turns
  StaircaseMerger merger;
  const absl::StatusOr<int64_t> merged = merger.Merge(terrain, cart, &path);
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_EQ(*merged, 1);
  EXPECT_EQ(AgentRunsToString(path.runs()), "R1,E20,R1,S20");
  EXPECT_DOUBLE_EQ(path.cost(), before - 2);
  const absl::StatusOr<AgentWalk> walk = WalkAgentPath(terrain, cart, path);
  ASSERT_TRUE(walk.ok()) << walk.status();
  EXPECT_EQ(walk->end, (Point{22, 22}));
  EXPECT_EQ(walk->heading, Direction::kS);
  EXPECT_DOUBLE_EQ(walk->cost, path.cost());
}

TEST(StaircaseMergerTest, MergesALongStaircaseIntoOneCorner) {
  const Grid terrain = Open(60, 60);
  const AgentClass cart = Cart();
  AgentPath path =
      Parse("R1,E5,R1,S5,L1,E5,R1,S5,L1,E5,R1,S5,L1,E5,R1,S5,L1,E5", {1, 1},
            terrain, cart);
  StaircaseMerger merger;
  const absl::StatusOr<int64_t> merged = merger.Merge(terrain, cart, &path);
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_EQ(*merged, 3);
  // The last east run stays: merging it would end the path facing south.
  EXPECT_EQ(AgentRunsToString(path.runs()), "R1,E20,R1,S20,L1,E5");
}

// The staircase of the tests below on `cells` (40 x 40), merged: the
// number of merges, the runs left in *runs.
int64_t MergeOn(std::vector<uint8_t> cells, std::string* runs) {
  const AgentClass cart = Cart();
  const Grid terrain = *Grid::Create(40, 40, std::move(cells));
  AgentPath path = Parse(runs->c_str(), {2, 2}, terrain, cart);
  StaircaseMerger merger;
  const absl::StatusOr<int64_t> merged = merger.Merge(terrain, cart, &path);
  EXPECT_TRUE(merged.ok()) << merged.status();
  *runs = AgentRunsToString(path.runs());
  return merged.ok() ? *merged : -1;
}

TEST(StaircaseMergerTest, LeavesABlockedCornerAndCostlierGround) {
  const std::string staircase = "R1,E10,R1,S10,L1,E10,R1,S10";
  // The merged corner (the cells east of the first run) is a wall.
  std::vector<uint8_t> walled(40 * 40, 1);
  for (int32_t x = 14; x < 24; ++x) walled[2 * 40 + x] = 0;
  std::string runs = staircase;
  EXPECT_EQ(MergeOn(walled, &runs), 0);
  EXPECT_EQ(runs, staircase);
  // The corner is passable but costs 4 a cell: two turns do not pay.
  std::vector<uint8_t> costly(40 * 40, 1);
  for (int32_t y = 0; y < 12; ++y) {
    for (int32_t x = 14; x < 24; ++x) costly[y * 40 + x] = 4;
  }
  runs = staircase;
  EXPECT_EQ(MergeOn(costly, &runs), 0);
  // Open ground: merged.
  runs = staircase;
  EXPECT_EQ(MergeOn(std::vector<uint8_t>(40 * 40, 1), &runs), 1);
  EXPECT_EQ(runs, "R1,E20,R1,S20");
}

// Random walks of alternating runs on random terrain: whatever is merged,
// the path stays legal, ends in the same state, costs its walked cost and
// never more than before.
TEST(StaircaseMergerTest, RandomStaircasesStayLegalAndNeverCostMore) {
  const AgentClass cart = Cart();
  int64_t merges = 0, paths = 0;
  StaircaseMerger merger;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    std::mt19937_64 rng(seed);
    std::vector<uint8_t> cells(48 * 48);
    for (uint8_t& c : cells) {
      c = rng() % 100 < 6 ? 0 : static_cast<uint8_t>(1 + rng() % 3);
    }
    const Grid terrain = *Grid::Create(48, 48, std::move(cells));
    // A legal staircase: east and south runs of 1..6 steps from (1, 1)
    // until a step is blocked.
    AgentPath path;
    path.Reset({1, 1}, Direction::kN);
    if (RectCost(terrain, cart, cart.TurnSweep({1, 1})) == 0) continue;
    path.AppendTurn(+1);
    Direction heading = Direction::kE;
    Point p{1, 1};
    for (int leg = 0; leg < 16; ++leg) {
      const uint32_t want = 1 + rng() % 6;
      uint32_t taken = 0;
      for (; taken < want; ++taken) {
        const Point q = Step(p, heading);
        if (PositionCost(terrain, cart, q, heading) == 0) break;
        p = q;
      }
      if (taken == 0) break;
      path.AppendStep(AgentAction::kForward, heading, taken);
      if (RectCost(terrain, cart, cart.TurnSweep(p)) == 0) break;
      const bool east = heading == Direction::kE;
      if (PositionCost(terrain, cart, p,
                       east ? Direction::kS : Direction::kE) == 0) {
        break;
      }
      path.AppendTurn(east ? +1 : -1);
      heading = east ? Direction::kS : Direction::kE;
    }
    absl::StatusOr<AgentWalk> before = WalkAgentPath(terrain, cart, path);
    ASSERT_TRUE(before.ok()) << "seed " << seed << ": " << before.status();
    path.set_cost(before->cost);
    const size_t runs_before = path.runs().size();
    const absl::StatusOr<int64_t> merged = merger.Merge(terrain, cart, &path);
    ASSERT_TRUE(merged.ok()) << "seed " << seed << ": " << merged.status();
    const absl::StatusOr<AgentWalk> after = WalkAgentPath(terrain, cart, path);
    ASSERT_TRUE(after.ok())
        << "seed " << seed << " " << AgentRunsToString(path.runs()) << ": "
        << after.status();
    EXPECT_EQ(after->end, before->end) << "seed " << seed;
    EXPECT_EQ(after->heading, before->heading) << "seed " << seed;
    EXPECT_DOUBLE_EQ(after->cost, path.cost()) << "seed " << seed;
    EXPECT_LE(after->cost, before->cost + 1e-9) << "seed " << seed;
    EXPECT_EQ(runs_before - path.runs().size(), 4u * *merged)
        << "seed " << seed;
    merges += *merged;
    ++paths;
  }
  EXPECT_GT(paths, 150);
  EXPECT_GT(merges, 100);
}

}  // namespace
}  // namespace zonepath
