// LandmarkBound (landmarks.h) gives the exact top search its ALT bound,
// computed in floats four landmarks at a time. On a level split into
// components (a wall across the map), with goals in either part and
// landmark counts that leave a remainder, the bound must be the formula's
// value, landmark by landmark, less at most its rounding allowance
// (unusable landmarks and unreachable nodes add nothing), and never above
// the true cost to the goal. (The test's reference works from the table's
// float distances, so it does not see how large that allowance must be
// against the exact ones: landmarks.cc's comment argues it.)
#include "landmarks.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "level_graph.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"

namespace zonepath::runtime_internal {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Cost from every node of level k to the virtual goal (the links).
std::vector<double> CostsToGoal(const LevelGraph& graph, int k,
                                const std::vector<Link>& goal) {
  std::vector<double> dist(graph.level(k).node_count(), kInfinity);
  using Item = std::pair<double, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  for (const Link& l : goal) {
    if (l.cost < dist[l.node]) open.push({dist[l.node] = l.cost, l.node});
  }
  while (!open.empty()) {
    const double d = open.top().first;
    const uint32_t u = open.top().second;
    open.pop();
    if (d > dist[u]) continue;
    graph.ForEachEdge(k, u, [&](uint32_t v, float cost, bool /*intra*/) {
      if (d + cost < dist[v]) open.push({dist[v] = d + cost, v});
    });
  }
  return dist;
}

// The bound as landmarks.h defines it, one landmark at a time, worked out
// in doubles from the table's (float) distances.
// `used`: the table's first landmarks read.
double Reference(const LevelLandmarks& table, int used,
                 const std::vector<Link>& goal, uint32_t n) {
  double bound = 0;
  for (int l = 0; l < used; ++l) {
    double low = kInfinity, high = -kInfinity;
    bool usable = true;
    for (const Link& g : goal) {
      const double d = table.Row(g.node)[l];
      if (d == kInfinity) usable = false;
      low = std::min(low, d + g.cost);
      high = std::max(high, d - g.cost);
    }
    const double d = table.Row(n)[l];
    if (!usable || d == kInfinity) continue;
    bound = std::max({bound, low - d, d - high});
  }
  return bound * (1 - 1e-6);
}

TEST(LandmarksTest, BoundIsTheFormulaAndAdmissibleAcrossComponents) {
  MapGenOptions g;
  g.kind = MapKind::kRooms;
  g.width = 512;
  g.height = 384;
  g.seed = 4;
  std::vector<uint8_t> costs = GenerateMap(g)->CostVector();
  for (int32_t x = 0; x < g.width; ++x) costs[190 * g.width + x] = kBlocked;
  const Grid grid = *Grid::Create(g.width, g.height, std::move(costs));
  BuildOptions o;
  o.params.zone_size = 16;
  o.params.levels = 2;
  o.threads = 1;
  absl::StatusOr<World> world = BuildWorld(grid, o);
  ASSERT_TRUE(world.ok()) << world.status();
  const LevelGraph graph(*world);
  const int k = 2;
  const uint32_t nodes = graph.level(k).node_count();
  ASSERT_GT(nodes, 100u);
  std::mt19937_64 rng(21);
  int in_other_part = 0, positive = 0;
  // (landmarks in the table, landmarks read): windows read the first 8 of
  // 16 (corridor_refiner.h).
  const std::pair<int, int> counts[] = {{1, 1},   {3, 3},  {8, 8}, {13, 13},
                                        {16, 16}, {16, 8}, {13, 5}};
  std::shared_ptr<const LevelLandmarks> eight;
  for (const auto& [count, used] : counts) {
    const std::shared_ptr<const LevelLandmarks> table =
        LevelLandmarks::Build(graph, k, count);
    ASSERT_NE(table, nullptr);
    ASSERT_EQ(table->count(), count);
    if (count == 8) eight = table;
    if (count == 16) {
      // Chosen farthest first: a table's first 8 are an 8-table's.
      ASSERT_NE(eight, nullptr);
      for (uint32_t n = 0; n < nodes; ++n) {
        for (int l = 0; l < 8; ++l) {
          ASSERT_EQ(table->Row(n)[l], eight->Row(n)[l])
              << "node " << n << " landmark " << l;
        }
      }
    }
    LandmarkBound bound;
    for (int q = 0; q < 20; ++q) {
      std::vector<Link> goal;
      const int links = 1 + static_cast<int>(rng() % 3);
      for (int i = 0; i < links; ++i) {
        const uint32_t node = static_cast<uint32_t>(rng() % nodes);
        goal.push_back({node, static_cast<double>(rng() % 40)});
      }
      bound.SetGoal(*table, goal, used);
      // 2^-22 of distances of at most a few thousand.
      EXPECT_GT(bound.slack(), 0.0);
      EXPECT_LT(bound.slack(), 1e-2);
      const std::vector<double> cost = CostsToGoal(graph, k, goal);
      for (uint32_t n = 0; n < nodes; ++n) {
        // Bound works in floats and takes its rounding off (slack): never
        // above the formula in doubles, and at most twice that below.
        const double b = bound.Bound(n);
        const double reference = Reference(*table, used, goal, n);
        EXPECT_LE(b, reference) << "count " << count << " used " << used
                                << " query " << q << " node " << n;
        EXPECT_GE(b, reference - 2 * bound.slack())
            << "count " << count << " used " << used << " query " << q
            << " node " << n;
        EXPECT_GE(b, 0.0);
        if (std::isinf(cost[n])) {
          ++in_other_part;
        } else {
          EXPECT_LE(b, cost[n] * (1 + 1e-6) + 1e-6)
              << "count " << count << " used " << used << " query " << q
              << " node " << n;
          positive += b > 0;
        }
      }
    }
  }
  // Both parts and real bounds were seen.
  EXPECT_GT(in_other_part, 1000);
  EXPECT_GT(positive, 1000);

  // Goal terms beyond a float (a link cost a crafted world's edges could
  // sum to) would make a term +inf, above any cost: such a query reads no
  // landmark.
  const std::shared_ptr<const LevelLandmarks> table =
      LevelLandmarks::Build(graph, k, 16);
  ASSERT_NE(table, nullptr);
  LandmarkBound bound;
  for (const double huge : {1e39, 0x1p101}) {
    const std::vector<Link> goal = {{0, huge}};
    bound.SetGoal(*table, goal);
    for (uint32_t n = 0; n < nodes; ++n) {
      ASSERT_EQ(bound.Bound(n), 0.0) << "node " << n << " cost " << huge;
    }
  }
}

}  // namespace
}  // namespace zonepath::runtime_internal
