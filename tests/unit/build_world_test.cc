// Property tests of the offline build on random and generated grids: exact
// level-1 edge costs, legal crossing steps, level-k edges equal to shortest
// paths on the level below, connectivity preserved at every level, zone
// components, cached paths, and thread-count independent output bytes.
#include "zonepath/offline/build_world.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <random>

#include "dijkstra_oracle.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/grid/path.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/world/world_file.h"

namespace zonepath {
namespace {

using testing::GridToText;
using testing::OracleDistances;

constexpr double kInf = std::numeric_limits<double>::infinity();

bool Near(double a, double b) {
  return std::abs(a - b) <= 1e-5 * std::max(1.0, std::abs(b));
}

// Dijkstra over level `li` restricted to nodes inside `zone_rect`.
std::vector<double> LevelDistances(const Abstraction& a, int li, uint32_t src,
                                   const Rect& zone_rect) {
  const AbstractLevel& level = a.levels[li];
  std::vector<double> dist(level.node_count(), kInf);
  using Item = std::pair<double, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> q;
  dist[src] = 0;
  q.push({0, src});
  while (!q.empty()) {
    auto [d, u] = q.top();
    q.pop();
    if (d > dist[u]) continue;
    for (uint32_t e = level.edge_begin[u]; e < level.edge_begin[u + 1]; ++e) {
      const uint32_t v = level.edges[e].target;
      if (!zone_rect.Contains(a.beacons[level.node_beacon[v]])) continue;
      if (d + level.edges[e].cost < dist[v]) {
        dist[v] = d + level.edges[e].cost;
        q.push({dist[v], v});
      }
    }
  }
  return dist;
}

// Graph components of a level (edges are symmetric), as labels.
std::vector<uint32_t> LevelComponents(const AbstractLevel& level) {
  std::vector<uint32_t> label(level.node_count(), UINT32_MAX);
  uint32_t next = 0;
  for (uint32_t s = 0; s < level.node_count(); ++s) {
    if (label[s] != UINT32_MAX) continue;
    std::vector<uint32_t> stack = {s};
    label[s] = next;
    while (!stack.empty()) {
      const uint32_t u = stack.back();
      stack.pop_back();
      for (uint32_t e = level.edge_begin[u]; e < level.edge_begin[u + 1]; ++e) {
        const uint32_t v = level.edges[e].target;
        if (label[v] == UINT32_MAX) {
          label[v] = next;
          stack.push_back(v);
        }
      }
    }
    ++next;
  }
  return label;
}

void CheckWorld(const World& world, const std::string& context) {
  const Grid& grid = world.grid();
  const Abstraction a = world.FlatAbstraction();
  const bool eight = a.params.connectivity == Connectivity::kEight;
  ASSERT_EQ(static_cast<int>(a.levels.size()), a.params.levels);
  // Level 1 edges.
  const AbstractLevel& l1 = a.levels[0];
  for (uint32_t u = 0; u < l1.node_count(); ++u) {
    const Point pu = a.beacons[l1.node_beacon[u]];
    const ZoneId zu = l1.ZoneOf(pu);
    const Rect rect = l1.ZoneRect(zu, grid.width(), grid.height());
    const std::vector<double> dist = OracleDistances(grid, pu, eight, rect);
    std::vector<bool> has_edge(l1.node_count(), false);
    for (uint32_t e = l1.edge_begin[u]; e < l1.edge_begin[u + 1]; ++e) {
      const AbstractEdge& edge = l1.edges[e];
      const Point pv = a.beacons[l1.node_beacon[edge.target]];
      has_edge[edge.target] = true;
      if (edge.inter_zone) {
        ASSERT_NE(l1.ZoneOf(pv), zu) << context;
        ASSERT_EQ(std::abs(pu.x - pv.x) + std::abs(pu.y - pv.y), 1) << context;
        ASSERT_TRUE(Near(edge.cost, (grid.cost(pu) + grid.cost(pv)) / 2.0))
            << context;
      } else {
        ASSERT_EQ(l1.ZoneOf(pv), zu) << context;
        ASSERT_TRUE(Near(edge.cost, dist[grid.Index(pv).value()]))
            << context << " edge " << PointString(pu) << "->" << PointString(pv)
            << " cost " << edge.cost << " exact "
            << dist[grid.Index(pv).value()];
      }
    }
    // Every reachable same-zone beacon has an edge; components agree.
    for (uint32_t v = l1.zone_node_begin[zu.value()];
         v < l1.zone_node_begin[zu.value() + 1]; ++v) {
      if (v == u) continue;
      const bool reachable =
          dist[grid.Index(a.beacons[l1.node_beacon[v]]).value()] < kInf;
      ASSERT_EQ(has_edge[v], reachable) << context;
      ASSERT_EQ(l1.node_component[u] == l1.node_component[v], reachable)
          << context;
    }
  }
  // Upper levels: intra edges are shortest paths on the level below inside
  // the zone; inter edges are level-1 crossing steps.
  for (int li = 1; li < a.params.levels; ++li) {
    const AbstractLevel& level = a.levels[li];
    const AbstractLevel& below = a.levels[li - 1];
    std::vector<uint32_t> below_node(a.beacons.size(), UINT32_MAX);
    for (uint32_t i = 0; i < below.node_count(); ++i) {
      below_node[below.node_beacon[i]] = i;
    }
    for (uint32_t u = 0; u < level.node_count(); ++u) {
      const Point pu = a.beacons[level.node_beacon[u]];
      const ZoneId z = level.ZoneOf(pu);
      ASSERT_NE(below_node[level.node_beacon[u]], UINT32_MAX) << context;
      const std::vector<double> dist =
          LevelDistances(a, li - 1, below_node[level.node_beacon[u]],
                         level.ZoneRect(z, grid.width(), grid.height()));
      for (uint32_t e = level.edge_begin[u]; e < level.edge_begin[u + 1]; ++e) {
        const AbstractEdge& edge = level.edges[e];
        const uint32_t vb = level.node_beacon[edge.target];
        if (edge.inter_zone) {
          ASSERT_NE(level.ZoneOf(a.beacons[vb]), z) << context;
        } else {
          ASSERT_TRUE(Near(edge.cost, dist[below_node[vb]])) << context;
        }
      }
    }
  }
  // Connectivity: at every level, two nodes are connected in the level's
  // graph iff their cells are in the same grid component.
  for (int li = 0; li < a.params.levels; ++li) {
    const AbstractLevel& level = a.levels[li];
    const std::vector<uint32_t> comp = LevelComponents(level);
    for (uint32_t u = 0; u < level.node_count(); ++u) {
      for (uint32_t v = u + 1; v < level.node_count(); v += 3) {
        ASSERT_EQ(comp[u] == comp[v],
                  grid.SameComponent(a.beacons[level.node_beacon[u]],
                                     a.beacons[level.node_beacon[v]]))
            << context << " level " << li + 1;
      }
    }
  }
  // Every passable cell either reaches a beacon of its level-1 zone inside
  // the zone, or its whole grid component lies inside that zone.
  for (int32_t y = 0; y < grid.height(); y += 3) {
    for (int32_t x = 0; x < grid.width(); x += 3) {
      if (!grid.passable({x, y})) continue;
      const ZoneId z = l1.ZoneOf({x, y});
      const Rect r = l1.ZoneRect(z, grid.width(), grid.height());
      const std::vector<double> dist = OracleDistances(grid, {x, y}, eight, r);
      bool reaches_beacon = false;
      for (uint32_t v = l1.zone_node_begin[z.value()];
           v < l1.zone_node_begin[z.value() + 1]; ++v) {
        reaches_beacon |= dist[grid.Index(a.beacons[v]).value()] < kInf;
      }
      if (reaches_beacon) continue;
      // Then nothing outside the zone may share its component.
      for (int32_t yy = 0; yy < grid.height(); ++yy) {
        for (int32_t xx = 0; xx < grid.width(); ++xx) {
          if (r.Contains({xx, yy})) continue;
          ASSERT_FALSE(grid.SameComponent({x, y}, {xx, yy}))
              << context << " cell " << PointString({x, y})
              << " is cut off from its zone's beacons but reaches "
              << PointString({xx, yy});
        }
      }
    }
  }
}

BuildOptions Options(int zone, int levels, int group, bool cache, int threads) {
  BuildOptions o;
  o.params.zone_size = zone;
  o.params.levels = levels;
  o.params.group = group;
  o.params.cache_paths = cache;
  o.threads = threads;
  return o;
}

TEST(BuildWorldTest, RandomGridsSatisfyAbstractionProperties) {
  for (uint64_t seed = 0; seed < 150; ++seed) {
    std::mt19937_64 rng(seed);
    const testing::RandomGridSpec spec{
        8 + static_cast<int>(rng() % 57), 8 + static_cast<int>(rng() % 57),
        static_cast<double>(rng() % 40) / 100.0,
        seed % 3 == 0 ? 1 + static_cast<int>(rng() % 6) : 1};
    Grid grid = testing::RandomGrid(seed, spec);
    const std::string text = GridToText(grid);
    BuildOptions o = Options(4 + static_cast<int>(rng() % 9), 1 + rng() % 3,
                             2 + rng() % 2, false, 1 + seed % 2);
    o.params.connectivity =
        seed % 5 == 4 ? Connectivity::kFour : Connectivity::kEight;
    if (seed % 4 == 1) {
      o.params.beacon_spacing = 2 + static_cast<int32_t>(rng() % 5);
    }
    absl::StatusOr<World> world = BuildWorld(std::move(grid), o);
    ASSERT_TRUE(world.ok()) << world.status();
    CheckWorld(*world, "seed " + std::to_string(seed) + " zone " +
                           std::to_string(o.params.zone_size) + "\nmap:\n" +
                           text);
    if (HasFatalFailure()) return;
  }
}

TEST(BuildWorldTest, GeneratedWorldsSatisfyAbstractionProperties) {
  for (MapKind kind :
       {MapKind::kRooms, MapKind::kMaze, MapKind::kRandom, MapKind::kTerrain}) {
    MapGenOptions g;
    g.kind = kind;
    g.width = 90;
    g.height = 70;
    g.feature = kind == MapKind::kRooms ? 10 : 2;
    g.seed = 4;
    absl::StatusOr<World> world =
        BuildWorld(*GenerateMap(g), Options(8, 3, 2, false, 2));
    ASSERT_TRUE(world.ok()) << world.status();
    CheckWorld(*world, std::string(MapKindName(kind)));
    if (HasFatalFailure()) return;
  }
}

// Ground of cost 2 crossed by a road of cost 1 (column 12): above level 1,
// the road's crossing of each border is a node, beside the middle crossing
// of its group (PickRepresentatives); without the road no node sits on
// column 12 there. Level-1 zones of 16: a border of zone column 0 has
// crossings at x = 0, 11 (the ends of [0, 12)), 12 (the road) and 14, so
// the middle one is at 11, not on the road.
TEST(BuildWorldTest, ACheaperCrossingIsANodeOnEveryLevel) {
  constexpr int kSide = 128;
  constexpr int32_t kRoad = 12;
  for (const bool road : {true, false}) {
    std::vector<uint8_t> costs(kSide * kSide, 2);
    if (road) {
      for (int y = 0; y < kSide; ++y) {
        costs[static_cast<size_t>(y) * kSide + kRoad] = 1;
      }
    }
    absl::StatusOr<World> world =
        BuildWorld(*Grid::Create(kSide, kSide, std::move(costs)),
                   Options(16, 3, 2, false, 1));
    ASSERT_TRUE(world.ok()) << world.status();
    const Abstraction a = world->FlatAbstraction();
    CheckWorld(*world, road ? "road" : "no road");
    ASSERT_EQ(a.levels.size(), 3u);
    for (size_t li = 1; li < a.levels.size(); ++li) {
      const AbstractLevel& level = a.levels[li];
      // Rows of this level's nodes on the road's column.
      const int32_t side = level.zone_side;
      std::vector<int32_t> rows;
      for (uint32_t v = 0; v < level.node_count(); ++v) {
        const Point p = a.beacons[level.node_beacon[v]];
        if (p.x == kRoad) rows.push_back(p.y);
      }
      std::vector<int32_t> want;
      if (road) {
        for (int32_t y = side; y < kSide; y += side) {
          want.push_back(y - 1);
          want.push_back(y);
        }
      }
      std::sort(rows.begin(), rows.end());
      EXPECT_EQ(rows, want) << "level " << li + 1 << (road ? " road" : "");
    }
  }
}

TEST(BuildWorldTest, OutputIsIdenticalForAnyThreadCount) {
  MapGenOptions g;
  g.kind = MapKind::kRooms;
  g.width = 300;
  g.height = 260;
  g.feature = 12;
  const Grid grid = *GenerateMap(g);
  std::string reference;
  for (int threads : {1, 2, 3, 5}) {
    absl::StatusOr<World> world =
        BuildWorld(grid, Options(16, 3, 3, true, threads));
    ASSERT_TRUE(world.ok());
    const std::string bytes = SerializeWorld(*world);
    if (reference.empty()) {
      reference = bytes;
    } else {
      EXPECT_EQ(bytes, reference) << threads << " threads";
    }
  }
}

TEST(BuildWorldTest, CachedPathsWalkBetweenTheirBeacons) {
  const Grid grid = testing::RandomGrid(9, {70, 50, 0.25, 4});
  absl::StatusOr<World> world = BuildWorld(grid, Options(10, 2, 2, true, 2));
  ASSERT_TRUE(world.ok());
  const Abstraction a = world->FlatAbstraction();
  const AbstractLevel& l1 = a.levels[0];
  ASSERT_EQ(a.cached_paths.path_begin.size(), l1.edges.size() + 1);
  int64_t checked = 0;
  for (uint32_t u = 0; u < l1.node_count(); ++u) {
    for (uint32_t e = l1.edge_begin[u]; e < l1.edge_begin[u + 1]; ++e) {
      std::vector<zonepath::Run> runs;
      for (uint32_t i = a.cached_paths.path_begin[e];
           i < a.cached_paths.path_begin[e + 1]; ++i) {
        runs.push_back(CachedPaths::UnpackRun(a.cached_paths.path_runs[i]));
      }
      if (l1.edges[e].inter_zone) {
        EXPECT_TRUE(runs.empty());
        continue;
      }
      absl::StatusOr<PathWalk> walk =
          WalkRuns(grid, a.beacons[u], runs, Connectivity::kEight);
      ASSERT_TRUE(walk.ok()) << walk.status();
      EXPECT_EQ(walk->end, a.beacons[l1.edges[e].target]);
      EXPECT_TRUE(Near(walk->cost, l1.edges[e].cost));
      ++checked;
    }
  }
  EXPECT_GT(checked, 50);
}

TEST(BuildWorldTest, DegenerateWorlds) {
  // No passable cell; 1x1; zone larger than the world; sides not multiples.
  std::vector<Grid> grids;
  grids.push_back(*Grid::Create(20, 20, std::vector<uint8_t>(400, 0)));
  grids.push_back(*Grid::Create(1, 1, {1}));
  grids.push_back(*Grid::Create(1, 1, {0}));
  grids.push_back(testing::RandomGrid(3, {13, 7, 0.2, 1}));
  grids.push_back(testing::RandomGrid(4, {67, 41, 0.2, 3}));
  for (const Grid& grid : grids) {
    for (int zone : {4, 8, 128}) {
      absl::StatusOr<World> world =
          BuildWorld(grid, Options(zone, 2, 2, true, 2));
      ASSERT_TRUE(world.ok()) << world.status();
      CheckWorld(*world, "degenerate " + std::to_string(grid.width()) + "x" +
                             std::to_string(grid.height()));
      absl::StatusOr<World> back = ParseWorld(SerializeWorld(*world));
      ASSERT_TRUE(back.ok()) << back.status();
      EXPECT_EQ(SerializeWorld(*back), SerializeWorld(*world));
    }
  }
}

TEST(BuildWorldTest, AutomaticLevelsFollowTheWorldSize) {
  BuildParams p;  // group 4
  p.zone_size = 32;
  EXPECT_EQ(AutoLevelCount(p, 100, 100), 1);
  EXPECT_EQ(AutoLevelCount(p, 1024, 1024), 2);
  EXPECT_EQ(AutoLevelCount(p, 4096, 512), 3);
  EXPECT_EQ(AutoLevelCount(p, 16384, 16384), 4);
  EXPECT_EQ(AutoLevelCount(p, 32768, 32768), 5);
  EXPECT_EQ(AutoLevelCount(p, 65536, 32768), 5);
  const Grid grid = *Grid::Create(600, 600, std::vector<uint8_t>(360000, 1));
  BuildOptions options;
  options.params.levels = 0;
  absl::StatusOr<World> world = BuildWorld(grid, options);
  ASSERT_TRUE(world.ok()) << world.status();
  EXPECT_EQ(world->params().levels, 2);
  EXPECT_EQ(world->abstraction().levels.size(), 2u);
}

TEST(BuildWorldTest, AutomaticZoneSizeFollowsTheWorldSize) {
  EXPECT_EQ(AutoZoneSize(1024, 1024), 32);
  EXPECT_EQ(AutoZoneSize(4096, 512), 32);
  EXPECT_EQ(AutoZoneSize(64, 4097), 64);
  EXPECT_EQ(AutoZoneSize(16384, 16384), 64);
  BuildParams p;  // zone size 0: automatic, levels 0: automatic
  EXPECT_EQ(p.zone_size, 0);
  // 0 is a build setting, never a world's: worlds store the resolved size.
  EXPECT_TRUE(ValidateBuildParams(p).ok());
  p.levels = 2;
  EXPECT_THAT(CheckParamRanges(p).message(),
              ::testing::HasSubstr("zone_size 0 not in 4..1024"));
  p.levels = 0;
  EXPECT_EQ(ResolveBuildParams(p, 1024, 1024).zone_size, 32);
  EXPECT_EQ(ResolveBuildParams(p, 1024, 1024).levels, 2);
  EXPECT_EQ(ResolveBuildParams(p, 16384, 16384).zone_size, 64);
  EXPECT_EQ(ResolveBuildParams(p, 16384, 16384).levels, 4);
  EXPECT_EQ(ResolveBuildParams(p, 32768, 32768).levels, 4);
  p.zone_size = 48;  // a given size is kept
  EXPECT_EQ(ResolveBuildParams(p, 16384, 16384).zone_size, 48);
  // Built: the world stores the resolved size; one cell past 4096 a side
  // takes zones of 64.
  for (const int32_t width : {4096, 4097}) {
    const Grid grid =
        *Grid::Create(width, 40, std::vector<uint8_t>(width * 40, 1));
    absl::StatusOr<World> world = BuildWorld(grid, BuildOptions());
    ASSERT_TRUE(world.ok()) << world.status();
    const int32_t expected = width > 4096 ? 64 : 32;
    EXPECT_EQ(world->params().zone_size, expected) << width;
    EXPECT_EQ(world->abstraction().levels[0].zone_side, expected) << width;
    EXPECT_EQ(world->params().levels, 3) << width;  // zones 32..512, 64..1024
    // A spacing under the resolved size's minimum (64 / 8) is refused
    // once the size is known, naming it.
    BuildOptions spaced;
    spaced.params.beacon_spacing = 4;
    absl::StatusOr<World> narrow = BuildWorld(grid, spaced);
    EXPECT_EQ(narrow.ok(), width <= 4096) << width;
    if (!narrow.ok()) {
      EXPECT_THAT(narrow.status().message(),
                  ::testing::HasSubstr("beacon_spacing 4 not 0 or in 8..1024 "
                                       "for zone_size 64"));
    }
  }
}

TEST(BuildWorldTest, RejectsBadParams) {
  const Grid grid = *Grid::Create(4, 4, std::vector<uint8_t>(16, 1));
  EXPECT_FALSE(BuildWorld(grid, Options(2, 2, 2, false, 1)).ok());
  EXPECT_FALSE(BuildWorld(grid, Options(8, -1, 2, false, 1)).ok());
  EXPECT_FALSE(BuildWorld(grid, Options(8, 9, 2, false, 1)).ok());
  EXPECT_FALSE(BuildWorld(grid, Options(8, 2, 1, false, 1)).ok());
  for (const int32_t spacing : {-1, 1, 1025}) {
    BuildOptions o = Options(8, 1, 2, false, 1);
    o.params.beacon_spacing = spacing;
    EXPECT_FALSE(BuildWorld(grid, o).ok()) << spacing;
  }
  for (const int32_t spacing : {0, 2, 1024}) {
    BuildOptions o = Options(8, 1, 2, false, 1);
    o.params.beacon_spacing = spacing;
    EXPECT_TRUE(BuildWorld(grid, o).ok()) << spacing;
  }
}

}  // namespace
}  // namespace zonepath
