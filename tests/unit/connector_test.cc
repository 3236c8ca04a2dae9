// EndpointConnector (connector.h) links an endpoint upward level by level;
// level j >= 2 runs ZoneLevelSearch, a Dijkstra on dense zone-local state
// that also skips the intra-zone edges of a node reached over one. Its
// links must equal a plain Dijkstra's over every level-(j-1) edge inside
// the endpoint's level-j zone, from the same level-(j-1) links.
#include "connector.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "dijkstra_oracle.h"
#include "generated_worlds.h"
#include "gtest/gtest.h"
#include "level_graph.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/update/world_changes.h"

namespace zonepath::runtime_internal {
namespace {

// Level-(j-1) distances from `seeds` inside p's level-j zone, every edge.
std::map<uint32_t, double> PlainDijkstra(const LevelGraph& graph, int j,
                                         Point p,
                                         const std::vector<Link>& seeds) {
  const Rect zone = graph.ZoneRect(j, p);
  std::map<uint32_t, double> dist;
  using Item = std::pair<double, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  auto g = [&](uint32_t v) {
    const auto it = dist.find(v);
    return it == dist.end() ? std::numeric_limits<double>::infinity()
                            : it->second;
  };
  for (const Link& l : seeds) {
    if (l.cost < g(l.node)) open.push({dist[l.node] = l.cost, l.node});
  }
  while (!open.empty()) {
    const double d = open.top().first;  // captured below: no binding
    const uint32_t u = open.top().second;
    open.pop();
    if (d > g(u)) continue;
    graph.ForEachEdge(j - 1, u, [&](uint32_t v, float cost, bool /*intra*/) {
      if (!zone.Contains(graph.NodeCell(j - 1, v))) return;
      if (d + cost < g(v)) open.push({dist[v] = d + cost, v});
    });
  }
  return dist;
}

// Connects 60 random points of `world` and checks each level's links
// against PlainDijkstra; returns how many levels were checked. Counts in
// *level_one_searches / *level_one_walks the points whose level-1 links
// took a cell search / came from ways of one turn alone (grids of one
// cost: a node with a legal way of one turn at the octile distance is not
// searched).
int CheckLinksAgainstDijkstra(const World& world, const std::string& label,
                              int* level_one_searches = nullptr,
                              int* level_one_walks = nullptr) {
  const Grid& grid = world.grid();
  const LevelGraph graph(world);
  // Every other point with the grid's open bits, as planners have them
  // (grids of one cost: every node's way is walked, not only up to the
  // first blocked one), the others without.
  GridAStar plain_astar(grid), bits_astar(grid);
  bits_astar.UseGridOpenBits(GridAStar::MakeGridOpenBits(grid));
  EndpointConnector plain(graph, &plain_astar, 1 << 18);
  EndpointConnector with_bits(graph, &bits_astar, 1 << 18);
  std::mt19937_64 rng(11);
  int checked = 0;
  for (int q = 0; q < 60; ++q) {
    const Point p{static_cast<int32_t>(rng() % grid.width()),
                  static_cast<int32_t>(rng() % grid.height())};
    if (!grid.PassableOrFalse(p)) continue;
    EndpointConnector& connector = q % 2 == 0 ? plain : with_bits;
    SearchStats level_one;
    EXPECT_TRUE(connector.Connect(p, 1, &level_one).ok()) << label;
    int* count = level_one.expanded > 0 ? level_one_searches : level_one_walks;
    if (count != nullptr) ++*count;
    SearchStats stats;
    EXPECT_TRUE(connector.Connect(p, graph.levels(), &stats).ok()) << label;
    // Level 1: the cell oracle inside p's zone (jump points on rooms and
    // mazes, whose cells cost the same; a Dijkstra on terrain).
    const Rect zone1 = graph.ZoneRect(1, p);
    const std::vector<double> cells = testing::OracleDistances(
        grid, p, graph.connectivity() == Connectivity::kEight, zone1);
    const SharedLevel& one = graph.level(1);
    const ZoneId z1 = one.ZoneOf(p);
    int reachable = 0;
    for (uint32_t v = one.zone_node_begin[z1.value()];
         v < one.zone_node_end[z1.value()]; ++v) {
      const double want = cells[grid.Index(graph.NodeCell(1, v)).value()];
      if (std::isinf(want)) continue;
      ++reachable;
      EXPECT_NEAR(connector.LinkCost(1, v), want, 1e-9 * (1 + want))
          << label << " at " << PointString(p) << " level 1 node " << v;
      // The cells AppendCells gives walk there at that cost.
      RunLengthPath way;
      way.Reset(p);
      const absl::Status appended = connector.AppendCells(v, &way, &stats);
      EXPECT_TRUE(appended.ok()) << label << " " << appended;
      if (!appended.ok()) continue;
      const absl::StatusOr<PathWalk> walked =
          WalkPath(grid, way, graph.connectivity());
      EXPECT_TRUE(walked.ok()) << label << " " << walked.status();
      if (!walked.ok()) continue;
      EXPECT_NEAR(walked->cost, want, 1e-9 * (1 + want)) << label;
      EXPECT_EQ(walked->end, graph.NodeCell(1, v)) << label;
      EXPECT_TRUE(zone1.Contains(walked->end)) << label;
    }
    EXPECT_EQ(static_cast<int>(connector.links(1).size()), reachable)
        << label << " at " << PointString(p) << " level 1";
    for (int j = 2; j <= connector.connected_levels(); ++j) {
      const std::map<uint32_t, double> expected =
          PlainDijkstra(graph, j, p, connector.links(j - 1));
      const SharedLevel& level = graph.level(j);
      const ZoneId zone = level.ZoneOf(p);
      int reachable = 0;
      for (uint32_t v = level.zone_node_begin[zone.value()];
           v < level.zone_node_end[zone.value()]; ++v) {
        const auto it = expected.find(graph.LowerId(j, v));
        if (it == expected.end()) continue;
        ++reachable;
        EXPECT_NEAR(connector.LinkCost(j, v), it->second,
                    1e-6 * (1 + it->second))
            << label << " at " << PointString(p) << " level " << j << " node "
            << v;
      }
      EXPECT_EQ(static_cast<int>(connector.links(j).size()), reachable)
          << label << " at " << PointString(p) << " level " << j;
      ++checked;
    }
  }
  return checked;
}

// Levels 3 and 4 connect by search without connection tables and by
// look-up with them (connection_tables.h); both must give the links a
// plain Dijkstra gives, and so must the tables ApplyChanges keeps (the
// zones it touched recomputed, the rest shared).
TEST(ConnectorTest, UpwardLinksEqualAPlainDijkstraInTheZone) {
  for (MapKind kind : {MapKind::kRooms, MapKind::kTerrain, MapKind::kMaze}) {
    for (bool tables : {false, true}) {
      MapGenOptions g;
      g.kind = kind;
      g.width = 768;
      g.height = 640;
      g.seed = 7;
      const Grid grid = *GenerateMap(g);
      BuildOptions o;
      o.params.zone_size = 32;  // upper zones' blocks fit the budget
      o.params.levels = 4;
      o.params.group = 2;
      o.threads = 1;
      o.connection_tables = tables;
      absl::StatusOr<World> world = BuildWorld(grid, o);
      ASSERT_TRUE(world.ok()) << world.status();
      ASSERT_EQ(world->connection_tables() != nullptr, tables);
      // Most upper zones have a block (else: searched); a maze's are over
      // the budget (ConnectionTables::kBytesPerCell).
      if (tables && kind != MapKind::kMaze) {
        const ConnectionTables& t = *world->connection_tables();
        for (int j = 3; j <= 4; ++j) {
          uint32_t with_block = 0;
          for (uint32_t z = 0; z < t.zone_count(j); ++z) {
            with_block += t.Block(j, z).empty() ? 0 : 1;
          }
          EXPECT_GT(with_block, t.zone_count(j) / 2)
              << "kind " << static_cast<int>(kind) << " level " << j;
        }
      }
      const std::string label = absl::StrCat("kind ", static_cast<int>(kind),
                                             tables ? " tables" : " search");
      int searched = 0, walked = 0;
      EXPECT_GT(CheckLinksAgainstDijkstra(*world, label, &searched, &walked),
                60)
          << label;
      // Rooms' zones are split by walls: their connections search.
      if (kind == MapKind::kRooms) {
        EXPECT_GT(searched, 0) << label;
      }
      if (!tables) continue;
      // Walls across a few zones, then the same check on the new version.
      std::vector<CellChange> changes;
      std::mt19937_64 rng(5 + static_cast<int>(kind));
      for (int w = 0; w < 6; ++w) {
        const int32_t x = static_cast<int32_t>(rng() % (g.width - 40));
        const int32_t y = static_cast<int32_t>(rng() % g.height);
        for (int32_t i = 0; i < 40; ++i) {
          changes.push_back({{x + i, y}, i % 13 == 0 ? 1 : kBlocked});
        }
      }
      absl::StatusOr<World> next = ApplyChanges(*world, changes);
      ASSERT_TRUE(next.ok()) << next.status();
      ASSERT_NE(next->connection_tables(), nullptr);
      EXPECT_GT(CheckLinksAgainstDijkstra(*next, label + " updated"), 60)
          << label;
    }
  }
}

// On a grid of one cost, a point whose zone nodes all have a legal way of
// one turn at the octile distance is linked without a search; the others
// search for the nodes from the first blocked way on. Both must give the
// oracle's costs (sparse random walls: both kinds occur).
TEST(ConnectorTest, WaysOfOneTurnLinkWithoutASearch) {
  for (double density : {0.0, 0.01, 0.03}) {
    testing::GeneratedWorldSpec spec;
    spec.kind = MapKind::kRandom;
    spec.density = density;
    spec.size = 256;
    spec.seed = 3;
    spec.zone_size = 32;
    const World world = testing::GeneratedWorld(spec);
    const Grid& grid = world.grid();
    const std::string label = absl::StrCat("random density ", density);
    int searched = 0, walked = 0;
    EXPECT_GT(CheckLinksAgainstDijkstra(world, label, &searched, &walked), 20)
        << label;
    EXPECT_GT(walked, 0) << label;
    if (density == 0.0) {
      EXPECT_EQ(searched, 0) << label;
    } else if (density == 0.03) {
      EXPECT_GT(searched, 0) << label;
      // A blocked endpoint is refused, not walked from.
      const LevelGraph graph(world);
      GridAStar astar(grid);
      EndpointConnector connector(graph, &astar, 1 << 18);
      Point blocked{-1, -1};
      for (int32_t i = 0; i < grid.width() * grid.height(); ++i) {
        const Point p{i % grid.width(), i / grid.width()};
        if (!grid.PassableOrFalse(p)) {
          blocked = p;
          break;
        }
      }
      ASSERT_NE(blocked.x, -1) << label;
      SearchStats stats;
      EXPECT_EQ(connector.Connect(blocked, 1, &stats).code(),
                absl::StatusCode::kInvalidArgument)
          << label;
    }
  }
}

// On a weighted grid, a zone whose open cells all cost the same links its
// nodes by legal ways of one turn (that cost times the octile distance, or
// Manhattan's when 4-connected: no way is cheaper) without a search, and
// searches only for the nodes left (their ways blocked by a wall); a zone
// of mixed costs searches. Links
// and the cells AppendCells walks must be the oracle's either way (generated
// terrain, with and without sprinkled walls, 8- and 4-connected).
TEST(ConnectorTest, WeightedZonesOfOneCostLinkByWaysOfOneTurn) {
  for (const Connectivity connectivity :
       {Connectivity::kEight, Connectivity::kFour}) {
    for (const double walls : {0.0, 0.02}) {
      MapGenOptions g;
      g.kind = MapKind::kTerrain;
      g.width = g.height = 256;
      g.seed = 5;
      Grid grid = *GenerateMap(g);
      std::vector<Grid::CellCost> blocked;
      std::mt19937_64 rng(9);
      for (int64_t i = 0; i < int64_t{256} * 256; ++i) {
        if (static_cast<double>(rng() % 1000) < walls * 1000) {
          blocked.push_back({CellIndex(static_cast<uint32_t>(i)), 0});
        }
      }
      grid = grid.WithCosts(blocked);
      BuildOptions o;
      o.params.zone_size = 32;
      o.params.levels = 2;
      o.params.connectivity = connectivity;
      o.threads = 1;
      absl::StatusOr<World> world = BuildWorld(grid, o);
      ASSERT_TRUE(world.ok()) << world.status();
      const std::string label =
          absl::StrCat("terrain walls ", walls, " connectivity ",
                       connectivity == Connectivity::kEight ? 8 : 4);
      int searched = 0, walked = 0;
      EXPECT_GT(CheckLinksAgainstDijkstra(*world, label, &searched, &walked),
                20)
          << label;
      // Sprinkled walls leave few zones whose every way is open: there the
      // Dijkstra takes the nodes left.
      if (walls == 0.0) {
        EXPECT_GT(walked, 0) << label;
      }
      EXPECT_GT(searched, 0) << label;
    }
  }
}

// A wall splits the top-left zone in two. Its nodes on the far side of
// the wall cannot be reached inside the zone, and the zone-local
// components say so: an endpoint whose own side's nodes all have ways of
// one turn is linked to those alone, without a search (which would
// otherwise settle its whole side before giving up on the far nodes).
// The same on a weighted grid whose zone has one cost (ways, then the
// Dijkstra for the nodes left).
TEST(ConnectorTest, NodesBeyondAWallInTheZoneAreNotSearchedFor) {
  for (const uint8_t far_cost : {1, 3}) {
    constexpr int32_t kSide = 64;
    std::vector<uint8_t> costs(kSide * kSide, 1);
    // The wall: column 15 of the top-left zone (rows 0..31).
    for (int32_t y = 0; y < 32; ++y) costs[y * kSide + 15] = kBlocked;
    // far_cost 3: the bottom-right zone is dearer, so the grid is weighted
    // while the top-left zone has one cost.
    for (int32_t y = 32; y < kSide; ++y) {
      for (int32_t x = 32; x < kSide; ++x) costs[y * kSide + x] = far_cost;
    }
    BuildOptions o;
    o.params.zone_size = 32;
    o.params.levels = 2;
    o.params.group = 2;
    o.threads = 1;
    absl::StatusOr<World> world =
        BuildWorld(*Grid::Create(kSide, kSide, std::move(costs)), o);
    ASSERT_TRUE(world.ok()) << world.status();
    const std::string label = absl::StrCat("far cost ", far_cost);
    const LevelGraph graph(*world);
    const SharedLevel& one = graph.level(1);
    const Point p{5, 5};
    const ZoneId z = one.ZoneOf(p);
    int near = 0, far = 0;
    for (uint32_t v = one.zone_node_begin[z.value()];
         v < one.zone_node_end[z.value()]; ++v) {
      ++(graph.NodeCell(1, v).x < 15 ? near : far);
    }
    // The bottom border has an entrance on each side of the wall; the
    // right border's are all beyond it.
    ASSERT_GT(near, 0) << label;
    ASSERT_GT(far, 0) << label;
    GridAStar astar(world->grid());
    // As planners have it: every node's way is read from the grid's bits.
    astar.UseGridOpenBits(GridAStar::MakeGridOpenBits(world->grid()));
    EndpointConnector connector(graph, &astar, 1 << 16);
    SearchStats stats;
    ASSERT_TRUE(connector.Connect(p, 1, &stats).ok()) << label;
    EXPECT_EQ(static_cast<int>(connector.links(1).size()), near) << label;
    for (const Link& l : connector.links(1)) {
      EXPECT_LT(graph.NodeCell(1, l.node).x, 15) << label;
    }
    EXPECT_EQ(stats.expanded, 0) << label;
    EXPECT_EQ(stats.generated, 0) << label;
    // Links and cells against the oracle from random points (level 1: the
    // grid has one zone on level 2).
    CheckLinksAgainstDijkstra(*world, label);
  }
}

}  // namespace
}  // namespace zonepath::runtime_internal
