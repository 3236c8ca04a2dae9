// BestFirst (the planner's abstract search loop) skips the intra-zone edges
// of a node it reached over an intra-zone edge. That is exact when each
// zone's intra-zone edges are a clique of shortest in-zone distances, as
// the builder writes them: on random graphs of that shape, the costs it
// settles equal a plain Dijkstra's over every edge, and it relaxes fewer
// edges than the same loop without the rule.
#include "best_first.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <queue>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace zonepath::runtime_internal {
namespace {

struct Edge {
  uint32_t to;
  double cost;
  bool intra;
};

struct Graph {
  std::vector<std::vector<Edge>> out;
};

// Zones of 2..12 nodes; inside each, a sparse random graph closed into a
// clique of shortest distances (pairs that do not meet stay unjoined);
// between zones, random one-way edges.
Graph RandomZonedGraph(std::mt19937_64& rng) {
  const int zones = std::uniform_int_distribution<int>(2, 12)(rng);
  std::vector<uint32_t> first{0};
  for (int z = 0; z < zones; ++z) {
    first.push_back(first.back() +
                    std::uniform_int_distribution<uint32_t>(2, 12)(rng));
  }
  const uint32_t n = first.back();
  Graph g;
  g.out.resize(n);
  std::uniform_real_distribution<double> weight(1.0, 10.0);
  constexpr double kNo = std::numeric_limits<double>::infinity();
  for (int z = 0; z < zones; ++z) {
    const uint32_t a = first[z], m = first[z + 1] - a;
    std::vector<double> d(m * m, kNo);
    for (uint32_t i = 0; i < m; ++i) d[i * m + i] = 0;
    for (uint32_t i = 0; i < m; ++i) {
      for (uint32_t j = i + 1; j < m; ++j) {
        if (rng() % 3 == 0) d[i * m + j] = d[j * m + i] = weight(rng);
      }
    }
    for (uint32_t k = 0; k < m; ++k) {  // Floyd-Warshall
      for (uint32_t i = 0; i < m; ++i) {
        for (uint32_t j = 0; j < m; ++j) {
          d[i * m + j] = std::min(d[i * m + j], d[i * m + k] + d[k * m + j]);
        }
      }
    }
    for (uint32_t i = 0; i < m; ++i) {
      for (uint32_t j = 0; j < m; ++j) {
        if (i != j && d[i * m + j] < kNo) {
          g.out[a + i].push_back({a + j, d[i * m + j], true});
        }
      }
    }
  }
  const int inter = std::uniform_int_distribution<int>(1, 3 * zones)(rng);
  for (int e = 0; e < inter; ++e) {
    const uint32_t u = rng() % n, v = rng() % n;
    const auto zone_of = [&](uint32_t x) {
      return std::upper_bound(first.begin(), first.end(), x) - first.begin();
    };
    if (zone_of(u) != zone_of(v)) g.out[u].push_back({v, weight(rng), false});
  }
  return g;
}

std::vector<double> Dijkstra(
    const Graph& g, const std::vector<std::pair<uint32_t, double>>& seeds) {
  std::vector<double> dist(g.out.size(),
                           std::numeric_limits<double>::infinity());
  using Item = std::pair<double, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  for (const auto& [s, c] : seeds) {
    if (c < dist[s]) open.push({dist[s] = c, s});
  }
  while (!open.empty()) {
    const auto [d, u] = open.top();
    open.pop();
    if (d > dist[u]) continue;
    for (const Edge& e : g.out[u]) {
      if (d + e.cost < dist[e.to]) open.push({dist[e.to] = d + e.cost, e.to});
    }
  }
  return dist;
}

// BestFirst to exhaustion; `use_intra`: pass the edges' intra flags (the
// rule applies), else every edge as inter-zone.
SearchStats RunBestFirst(const Graph& g,
                         const std::vector<std::pair<uint32_t, double>>& seeds,
                         bool use_intra, std::vector<double>* dist) {
  NodeStateMap state(1 << 16);
  std::vector<OpenEntry> open;
  SearchStats stats;
  state.NewSearch();
  for (const auto& [s, c] : seeds) {
    EXPECT_TRUE(Seed(state, open, s, c, 0.0, &stats));
  }
  uint32_t goal_record = 0;
  const BestFirstResult result = BestFirst(
      state, open,
      // relax applies the rule itself; skips_intra only lets callers
      // avoid work.
      [&](uint32_t u, auto&& relax, bool /*skips_intra*/) {
        for (const Edge& e : g.out[u]) {
          relax(e.to, e.cost, 0.0, use_intra && e.intra);
        }
      },
      [](const NodeStateMap::Record&) { return false; },
      std::numeric_limits<double>::infinity(), &stats, &goal_record,
      [](uint32_t) {});
  EXPECT_EQ(result, BestFirstResult::kExhausted);
  dist->resize(g.out.size());
  for (uint32_t v = 0; v < g.out.size(); ++v) (*dist)[v] = state.G(v);
  return stats;
}

TEST(BestFirstTest, SkippingIntraZoneEdgesAfterAnIntraZoneEdgeIsExact) {
  int64_t pruned_generated = 0, full_generated = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    std::mt19937_64 rng(seed);
    const Graph g = RandomZonedGraph(rng);
    std::vector<std::pair<uint32_t, double>> seeds;
    const int count = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < count; ++i) {
      seeds.push_back({static_cast<uint32_t>(rng() % g.out.size()),
                       std::uniform_real_distribution<double>(0, 5)(rng)});
    }
    const std::vector<double> expected = Dijkstra(g, seeds);
    std::vector<double> pruned, full;
    pruned_generated += RunBestFirst(g, seeds, true, &pruned).generated;
    full_generated += RunBestFirst(g, seeds, false, &full).generated;
    for (uint32_t v = 0; v < g.out.size(); ++v) {
      if (expected[v] == std::numeric_limits<double>::infinity()) {
        EXPECT_EQ(pruned[v], expected[v]) << "seed " << seed << " node " << v;
        continue;
      }
      EXPECT_NEAR(pruned[v], expected[v], 1e-9 * (1 + expected[v]))
          << "seed " << seed << " node " << v << " of " << g.out.size();
      EXPECT_NEAR(full[v], expected[v], 1e-9 * (1 + expected[v]))
          << "seed " << seed << " node " << v;
    }
  }
  // The rule must have skipped edges (else the test proves nothing).
  EXPECT_LT(pruned_generated, full_generated);
}

// The open list (a 4-ary heap): under random pushes and pops, as a search
// makes them, each pop returns an entry that no entry still held precedes
// in OpenFirst's order (lowest f, ties to the larger g; f and g drawn from a
// few values so that ties are common), and every entry pushed comes out
// once.
TEST(BestFirstTest, OpenListPopsInOpenFirstOrder) {
  for (uint64_t seed = 0; seed < 50; ++seed) {
    std::mt19937_64 rng(seed);
    std::vector<OpenEntry> open;
    std::vector<OpenEntry> held;  // the same entries, unordered
    std::vector<uint32_t> popped;
    uint32_t pushed = 0;
    const int steps = 200 + static_cast<int>(rng() % 2000);
    for (int step = 0; step < steps; ++step) {
      if (held.empty() || rng() % 3 != 0) {
        const OpenEntry e{static_cast<double>(rng() % 8),
                          static_cast<double>(rng() % 4), pushed++};
        PushOpen(open, e);
        held.push_back(e);
      } else {
        const OpenEntry top = PopOpen(open);
        for (const OpenEntry& e : held) {
          ASSERT_FALSE(OpenFirst(e, top))
              << "seed " << seed << " step " << step << ": popped (" << top.f
              << ", " << top.g << ") while (" << e.f << ", " << e.g
              << ") was held";
        }
        const auto it = std::find_if(
            held.begin(), held.end(),
            [&](const OpenEntry& e) { return e.record == top.record; });
        ASSERT_NE(it, held.end()) << "seed " << seed << ": popped twice";
        held.erase(it);
        popped.push_back(top.record);
      }
      ASSERT_EQ(open.size(), held.size()) << "seed " << seed;
    }
    while (!open.empty()) popped.push_back(PopOpen(open).record);
    std::sort(popped.begin(), popped.end());
    ASSERT_EQ(popped.size(), pushed) << "seed " << seed;
    for (uint32_t i = 0; i < pushed; ++i) ASSERT_EQ(popped[i], i);
  }
}

}  // namespace
}  // namespace zonepath::runtime_internal
