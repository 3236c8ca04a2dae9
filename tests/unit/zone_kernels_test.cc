// The upper-level zone search (SearchUpperZone, hand-written Dijkstra with
// reusable scratch, used by the builder and by runtime updates) against
// Boost.Graph's Dijkstra on random zone graphs: the same edges, the same
// float costs, bit for bit. And beacon placement along a border, with and
// without a beacon spacing.
#include "zonepath/update/zone_kernels.h"

#include <random>
#include <string>
#include <vector>

#include "boost/graph/adjacency_list.hpp"
#include "boost/graph/dijkstra_shortest_paths.hpp"
#include "gtest/gtest.h"

namespace zonepath::update_internal {
namespace {

struct LocalEdge {
  uint32_t target;
  float cost;
};

// Boost's answer for the same problem, in SearchUpperZone's output order.
std::vector<PendingEdge> BoostOracle(
    const std::vector<std::vector<LocalEdge>>& graph,
    const std::vector<uint32_t>& sources, uint32_t first_id) {
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS,
                            boost::no_property,
                            boost::property<boost::edge_weight_t, double>>;
  Graph g(graph.size());
  for (uint32_t u = 0; u < graph.size(); ++u) {
    for (const LocalEdge& e : graph[u]) boost::add_edge(u, e.target, e.cost, g);
  }
  std::vector<PendingEdge> out;
  if (sources.size() < 2) return out;
  std::vector<double> dist(graph.size());
  for (uint32_t a = 0; a < sources.size(); ++a) {
    boost::dijkstra_shortest_paths(
        g, sources[a],
        boost::distance_map(boost::make_iterator_property_map(
            dist.begin(), boost::get(boost::vertex_index, g))));
    for (uint32_t b = 0; b < sources.size(); ++b) {
      const double d = dist[sources[b]];
      if (b != a && d < std::numeric_limits<double>::max()) {
        out.push_back({first_id + a, {first_id + b, 0, static_cast<float>(d)}});
      }
    }
  }
  return out;
}

TEST(ZoneKernelsTest, UpperZoneSearchMatchesBoostDijkstra) {
  UpperZoneScratch scratch;  // reused across all zones, as the callers do
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    std::mt19937_64 rng(seed);
    const uint32_t n = 1 + static_cast<uint32_t>(rng() % 60);
    std::vector<std::vector<LocalEdge>> graph(n);
    const uint32_t edges = static_cast<uint32_t>(rng() % (4 * n + 1));
    std::uniform_real_distribution<float> cost(0.5f, 40.0f);
    for (uint32_t i = 0; i < edges; ++i) {
      const uint32_t u = static_cast<uint32_t>(rng() % n);
      const uint32_t v = static_cast<uint32_t>(rng() % n);
      if (u == v) continue;
      // Costs like real ones (sums of 1 and sqrt 2 steps) and random ones;
      // undirected like the level graphs, sometimes with parallel edges.
      const float c =
          (rng() & 1) != 0
              ? static_cast<float>((rng() % 20) + (rng() % 20) * 1.41421356)
              : cost(rng);
      const float w = c > 0 ? c : 1.0f;
      graph[u].push_back({v, w});
      graph[v].push_back({u, w});
    }
    std::vector<uint32_t> sources;
    for (uint32_t u = 0; u < n; ++u) {
      if (rng() % 3 == 0) sources.push_back(u);
    }
    std::shuffle(sources.begin(), sources.end(), rng);
    const uint32_t first_id = static_cast<uint32_t>(rng() % 1000);
    std::vector<PendingEdge> got;
    SearchUpperZone(
        n,
        [&](uint32_t u, const AddBelowEdge& add) {
          for (const LocalEdge& e : graph[u]) add(e.target, e.cost);
        },
        sources, first_id, &scratch, &got);
    const std::vector<PendingEdge> want = BoostOracle(graph, sources, first_id);
    ASSERT_EQ(got.size(), want.size()) << "seed " << seed;
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i].source, want[i].source) << "seed " << seed;
      ASSERT_EQ(got[i].edge.target, want[i].edge.target) << "seed " << seed;
      ASSERT_EQ(got[i].edge.cost, want[i].edge.cost)
          << "seed " << seed << " edge " << i;
      ASSERT_EQ(got[i].edge.inter_zone, 0);
    }
  }
}

// Beacon placement along one border: short entrances get their middle,
// long ones both ends, and with a beacon spacing s evenly spread pairs in
// between, at most s cells apart and no more of them than that needs.
std::vector<int32_t> PlacedColumns(const Grid& grid, const BuildParams& p) {
  std::vector<std::pair<Point, Point>> pairs;
  ScanBorderSegment(grid, p, {false, 1, 0, grid.width()}, &pairs);
  std::vector<int32_t> xs;
  for (const auto& [a, b] : pairs) {
    EXPECT_EQ(a.x, b.x);
    EXPECT_EQ(a.y + 1, b.y);
    xs.push_back(a.x);
  }
  return xs;
}

// A group's representatives: the middle crossing by position, and the
// middle of the cheapest crossings where they cost less than it.
TEST(ZoneKernelsTest, RepresentativesAreTheMiddleAndTheMiddleCheapest) {
  const auto pick = [](std::vector<double> costs) {
    const Representatives r =
        PickRepresentatives(costs.size(), [&](size_t k) { return costs[k]; });
    return std::vector<size_t>{r.middle, r.cheapest};
  };
  using V = std::vector<size_t>;
  EXPECT_EQ(pick({2}), (V{0, 0}));
  EXPECT_EQ(pick({2, 2, 2, 2}), (V{1, 1}));     // one cost: the middle only
  EXPECT_EQ(pick({2, 2, 2, 1, 2}), (V{2, 3}));  // a road off the middle
  EXPECT_EQ(pick({1, 2, 2, 2, 2}), (V{2, 0}));
  EXPECT_EQ(pick({2, 2, 1, 2, 2}), (V{2, 2}));     // the middle is the cheapest
  EXPECT_EQ(pick({1, 3, 3, 1, 2, 1}), (V{2, 3}));  // middle of three roads
  EXPECT_EQ(pick({1.5, 2, 2, 1, 1}), (V{2, 3}));   // the cheapest, not cheaper
  EXPECT_EQ(pick({3, 1}), (V{0, 1}));
}

TEST(ZoneKernelsTest, BeaconSpacingSpreadsPairsAlongLongEntrances) {
  // Row 1 blocked at x = 3 and 25: entrances [0, 3), [4, 25), [26, 40).
  std::vector<uint8_t> cells(80, 1);
  cells[40 + 3] = cells[40 + 25] = 0;
  const Grid grid = *Grid::Create(40, 2, cells);
  BuildParams p;
  EXPECT_EQ(PlacedColumns(grid, p), (std::vector<int32_t>{1, 4, 24, 26, 39}));
  p.beacon_spacing = 8;
  EXPECT_EQ(PlacedColumns(grid, p),
            (std::vector<int32_t>{1, 4, 10, 17, 24, 26, 32, 39}));
  p.beacon_spacing = 100;  // wider than any entrance: the ends only
  EXPECT_EQ(PlacedColumns(grid, p), (std::vector<int32_t>{1, 4, 24, 26, 39}));

  // Random rows: every spacing keeps the ends, gaps <= s, and the fewest
  // pairs that allows.
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const int32_t w = 8 + static_cast<int32_t>(rng() % 120);
    std::vector<uint8_t> row(2 * w, 1);
    for (int32_t x = 0; x < w; ++x) {
      if (rng() % 12 == 0) row[w + x] = 0;
    }
    const Grid g = *Grid::Create(w, 2, row);
    BuildParams q;
    q.entrance_threshold = 2 + static_cast<int32_t>(rng() % 8);
    q.beacon_spacing = 2 + static_cast<int32_t>(rng() % 20);
    const std::vector<int32_t> xs = PlacedColumns(g, q);
    size_t i = 0;
    for (int32_t x = 0; x < w;) {
      if (row[w + x] == 0) {
        ++x;
        continue;
      }
      int32_t end = x;
      while (end < w && row[w + end] != 0) ++end;
      const int32_t length = end - x;
      const std::string context = "trial " + std::to_string(trial) +
                                  " entrance at " + std::to_string(x) +
                                  " length " + std::to_string(length);
      if (length < q.entrance_threshold) {
        ASSERT_LT(i, xs.size()) << context;
        EXPECT_EQ(xs[i++], x + (length - 1) / 2) << context;
      } else {
        const int32_t gaps =
            std::max(1, (length - 1 + q.beacon_spacing - 1) / q.beacon_spacing);
        ASSERT_LE(i + gaps + 1, xs.size()) << context;
        EXPECT_EQ(xs[i], x) << context;
        EXPECT_EQ(xs[i + gaps], end - 1) << context;
        for (int32_t k = 1; k <= gaps; ++k) {
          EXPECT_GT(xs[i + k], xs[i + k - 1]) << context;
          EXPECT_LE(xs[i + k] - xs[i + k - 1], q.beacon_spacing) << context;
        }
        i += gaps + 1;
      }
      x = end;
    }
    EXPECT_EQ(i, xs.size()) << "trial " << trial;
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace zonepath::update_internal
