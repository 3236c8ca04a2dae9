// Class 1 of issue 16: world files with valid checksums but inconsistent
// content. Each case rewrites one field the runtime relies on, repairs the
// CRCs (so the real loader, checksums on, sees it) and expects kDataLoss
// naming the file, level, section and index. Valid worlds of every shape
// must still load.
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "world_mutation.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/world/world_file.h"
#include "zonepath/world/world_file_format.h"

namespace zonepath {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

using world_format::kBeacons;
using world_format::kEdgeBegin;
using world_format::kEdges;
using world_format::kPathRuns;

// A generated rooms world (room side 9) built on one thread.
World RoomsWorld(int64_t width, int64_t height, int32_t zone_size, int levels,
                 bool cache_paths) {
  MapGenOptions g;
  g.kind = MapKind::kRooms;
  g.width = width;
  g.height = height;
  g.feature = 9;
  BuildOptions o;
  o.params.zone_size = zone_size;
  o.params.levels = levels;
  o.params.group = 2;
  o.params.cache_paths = cache_paths;
  o.threads = 1;
  return *BuildWorld(*GenerateMap(g), o);
}

World CachedWorld() { return RoomsWorld(96, 64, 8, 3, true); }

template <typename T>
void Poke(std::string* bytes, uint32_t kind, uint32_t level, uint64_t index,
          size_t at, T value, size_t element_bytes) {
  const std::optional<size_t> offset =
      fuzz::ElementOffset(*bytes, kind, level, index, element_bytes);
  ASSERT_TRUE(offset.has_value());
  std::memcpy(bytes->data() + *offset + at, &value, sizeof(T));
  fuzz::RepairChecksums(bytes);
}

void ExpectLoss(const std::string& bytes, const std::string& message) {
  absl::StatusOr<World> world = ParseWorld(bytes, "poked.zpw");
  ASSERT_FALSE(world.ok()) << "expected: " << message;
  EXPECT_EQ(world.status().code(), absl::StatusCode::kDataLoss);
  const std::string text(world.status().message());
  EXPECT_THAT(text, StartsWith("poked.zpw: "));
  EXPECT_THAT(text, HasSubstr(message));
}

bool Adjacent(Point a, Point b) {
  return std::abs(a.x - b.x) <= 1 && std::abs(a.y - b.y) <= 1;
}

// The check that every abstract edge has a way below it is O(cells) and
// left out of loading by default (LoadOptions::verify_refinement): a file
// whose grid was cut inside a zone, so that level-1 intra-zone edges there
// have no way inside the zone (their ends stay connected around it), loads,
// and every query gives a legal path or a status, never an illegal path.
// With the check on, loading refuses it.
TEST(WorldConsistencyTest, ZoneCutBehindItsEdgesIsAStatusNotAnIllegalPath) {
  BuildOptions o;
  o.params.zone_size = 16;
  o.params.levels = 2;
  o.params.group = 2;
  o.threads = 1;
  // An open field, so every zone has beacons on all four sides.
  std::vector<uint8_t> costs(static_cast<size_t>(96) * 64, 1);
  absl::StatusOr<World> world = BuildWorld(*Grid::Create(96, 64, costs), o);
  ASSERT_TRUE(world.ok()) << world.status();
  // Wall off a column of the zone x 16..31, y 16..31 from its top row to
  // its bottom row, one that holds no beacon (the first column that loads).
  std::string bytes;
  for (int32_t x = 18; x < 30 && bytes.empty(); ++x) {
    std::string cut = SerializeWorld(*world);
    for (int32_t y = 16; y < 32; ++y) {
      const std::optional<size_t> at = fuzz::ElementOffset(
          cut, world_format::kGrid, 0, static_cast<uint64_t>(y) * 96 + x, 1);
      ASSERT_TRUE(at.has_value());
      cut[*at] = 0;
    }
    fuzz::RepairChecksums(&cut);
    if (ParseWorld(cut, "cut.zpw").ok()) bytes = cut;
  }
  ASSERT_FALSE(bytes.empty()) << "every column holds a beacon";
  std::mt19937_64 rng(3);
  int64_t queries = 0, errors = 0;
  for (int round = 0; round < 40; ++round) {
    const fuzz::MutantResult r = fuzz::CheckMutant(bytes, rng, 10);
    EXPECT_EQ(r.illegal_paths, 0) << r.first_problem;
    queries += r.queries;
    errors += r.errors;
  }
  EXPECT_GT(queries, 0);
  EXPECT_GT(errors, 0) << queries << " queries";
  LoadOptions deep;
  deep.verify_refinement = true;
  absl::StatusOr<World> refused = ParseWorld(bytes, "cut.zpw", deep);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("are not connected inside their zone"));
}

// Component labels are loaded, not recomputed (format version 3); loading
// checks their structure only. Labels that merge two separate regions
// (valid layout, checksums repaired) load, and then a query across the wall
// is searched instead of answered "unreachable" at once: it must end in a
// status or "unreachable", never in a path, and every other query stays
// legal. With the deep check on, loading refuses the file.
TEST(WorldConsistencyTest, LabelsThatMergeSeparateRegionsNeverYieldAPath) {
  BuildOptions o;
  o.params.zone_size = 16;
  o.params.levels = 2;
  o.threads = 1;
  // 96 x 64, walled at x = 40: tile 0 holds both sides (labels 0 and 1),
  // tile 1 the right side only (1). Tile 1's label is pointed at component
  // 0, the left side's: still one label per component within each tile,
  // so the load accepts it, and the right side of tile 1 now "reaches"
  // the left side.
  std::vector<uint8_t> costs(static_cast<size_t>(96) * 64, 1);
  for (int y = 0; y < 64; ++y) costs[static_cast<size_t>(y) * 96 + 40] = 0;
  absl::StatusOr<World> world = BuildWorld(*Grid::Create(96, 64, costs), o);
  ASSERT_TRUE(world.ok()) << world.status();
  ASSERT_EQ(world->grid().component_count(), 2u);
  std::string bytes = SerializeWorld(*world);
  Poke<uint32_t>(&bytes, world_format::kLabelGlobal, 0, 2, 0, 0, 4);
  absl::StatusOr<World> merged = ParseWorld(bytes, "merged.zpw");
  ASSERT_TRUE(merged.ok()) << merged.status();
  ASSERT_TRUE(merged->grid().SameComponent({0, 0}, {95, 63}));
  Planner planner(*merged);
  RunLengthPath path;
  for (bool smooth : {false, true}) {
    PlanOptions options;
    options.smooth = smooth;
    absl::StatusOr<SearchOutcome> across =
        planner.FindPath({2, 30}, {90, 30}, options, &path);
    EXPECT_TRUE(!across.ok() || *across != SearchOutcome::kFound)
        << "a path through the wall";
  }
  std::mt19937_64 rng(5);
  const fuzz::MutantResult r = fuzz::CheckMutant(bytes, rng, 200);
  EXPECT_TRUE(r.loaded);
  EXPECT_EQ(r.illegal_paths, 0) << r.first_problem;
  EXPECT_GT(r.found, 0);
  LoadOptions deep;
  deep.verify_refinement = true;
  absl::StatusOr<World> refused = ParseWorld(bytes, "merged.zpw", deep);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("component labels: disagree with the grid"));
}

TEST(WorldConsistencyTest, ValidWorldsOfEveryShapeLoad) {
  for (const std::string& seed : fuzz::SeedWorlds()) {
    EXPECT_TRUE(ParseWorld(seed).ok()) << ParseWorld(seed).status();
  }
  const std::string bytes = SerializeWorld(CachedWorld());
  absl::StatusOr<World> world = ParseWorld(bytes);
  ASSERT_TRUE(world.ok()) << world.status();
  EXPECT_EQ(SerializeWorld(*world), bytes);
}

TEST(WorldConsistencyTest, InterZoneEdgeBetweenCellsThatAreNotAdjacent) {
  const World world = CachedWorld();
  const Abstraction a = world.FlatAbstraction();
  const AbstractLevel& l1 = a.levels[0];
  for (uint32_t u = 0; u < l1.node_count(); ++u) {
    for (uint32_t e = l1.edge_begin[u]; e < l1.edge_begin[u + 1]; ++e) {
      if (!l1.edges[e].inter_zone) continue;
      // Re-point it to another node of the target's zone, not adjacent.
      const uint32_t v = l1.edges[e].target;
      const uint32_t z = l1.ZoneOf(a.beacons[v]).value();
      for (uint32_t w = l1.zone_node_begin[z]; w < l1.zone_node_begin[z + 1];
           ++w) {
        if (Adjacent(a.beacons[u], a.beacons[w])) continue;
        std::string bytes = SerializeWorld(world);
        Poke<uint32_t>(&bytes, kEdges, 1, e, 0, w | 0x80000000u, 8);
        ExpectLoss(bytes, absl::StrCat("level 1 section edges: edge ", e,
                                       " (node ", u, " -> ", w,
                                       "): inter-zone edge is not one legal "
                                       "step"));
        return;
      }
    }
  }
  FAIL() << "no inter-zone edge to re-point";
}

TEST(WorldConsistencyTest, IntraZoneEdgeToAnotherZone) {
  const World world = CachedWorld();
  const Abstraction flat = world.FlatAbstraction();
  const AbstractLevel& l1 = flat.levels[0];
  for (uint32_t e = 0; e < l1.edges.size(); ++e) {
    if (l1.edges[e].inter_zone) continue;
    std::string bytes = SerializeWorld(world);
    const uint32_t other =
        (l1.edges[e].target + l1.zone_node_begin[1] + 7) % l1.node_count();
    if (l1.ZoneOf(flat.beacons[other]) ==
        l1.ZoneOf(flat.beacons[l1.edges[e].target])) {
      continue;
    }
    Poke<uint32_t>(&bytes, kEdges, 1, e, 0, other, 8);
    ExpectLoss(bytes, absl::StrCat("level 1 section edges: edge ", e));
    return;
  }
  FAIL() << "no intra-zone edge to re-point";
}

// Many zones (2560 of 4 x 4 cells: both load threads check some), no
// cached paths.
World ManyZoneWorld() { return RoomsWorld(256, 160, 4, 2, false); }

// Removes edge e of level 1 (node u's), keeping the CSR offsets consistent.
void RemoveEdge(AbstractLevel* level, uint32_t u, uint32_t e) {
  level->edges.erase(level->edges.begin() + e);
  for (uint32_t n = u + 1; n < level->edge_begin.size(); ++n) {
    --level->edge_begin[n];
  }
}

uint32_t EdgeIndex(const AbstractLevel& level, uint32_t u, uint32_t v,
                   bool inter) {
  for (uint32_t e = level.edge_begin[u]; e < level.edge_begin[u + 1]; ++e) {
    if (level.edges[e].target == v && (level.edges[e].inter_zone != 0) == inter)
      return e;
  }
  return UINT32_MAX;
}

void ExpectLossOnThreads(const std::string& bytes, const std::string& want) {
  for (int threads : {1, 2}) {
    LoadOptions options;
    options.threads = threads;
    absl::StatusOr<World> loaded = ParseWorld(bytes, "poked.zpw", options);
    ASSERT_FALSE(loaded.ok()) << want;
    EXPECT_EQ(loaded.status().code(), absl::StatusCode::kDataLoss);
    EXPECT_EQ(std::string(loaded.status().message()), "poked.zpw: " + want)
        << threads << " threads";
  }
}

// Edges come in pairs u -> v, v -> u of one kind. Loading sums a keyed hash
// over the edges and names an edge only when the sums differ: an inter-zone
// edge u -> v taken out leaves v -> u without its reverse, named on one
// thread and two.
TEST(WorldConsistencyTest, EdgesWithoutTheirReverse) {
  const World world = ManyZoneWorld();
  const Abstraction flat = world.FlatAbstraction();
  const AbstractLevel& l1 = flat.levels[0];
  int cases = 0;
  for (uint32_t u = 0; u < l1.node_count() && cases < 6; u += 61) {
    for (uint32_t e = l1.edge_begin[u]; e < l1.edge_begin[u + 1]; ++e) {
      if (!l1.edges[e].inter_zone) continue;
      const uint32_t v = l1.edges[e].target;
      Abstraction poked = flat;
      RemoveEdge(&poked.levels[0], u, e);
      const uint32_t back = EdgeIndex(poked.levels[0], v, u, true);
      ASSERT_NE(back, UINT32_MAX);
      ExpectLossOnThreads(
          SerializeWorld(World(world.grid(), poked)),
          absl::StrCat("level 1 section edges: edge ", back, " (node ", v,
                       " -> ", u, ") has no reverse edge"));
      ++cases;
      break;
    }
  }
  EXPECT_GE(cases, 4);
}

// Each zone component's intra-zone edges are a clique (the planner's
// searches rely on it, best_first.h): a pair u <-> v taken out of a
// component of three or more nodes keeps the labels right (the others still
// join them) and is refused at the smaller node. An edge listed twice is
// refused as such.
TEST(WorldConsistencyTest, ZoneComponentsThatAreNotCliquesOrListAnEdgeTwice) {
  const World world = ManyZoneWorld();
  const Abstraction flat = world.FlatAbstraction();
  const AbstractLevel& l1 = flat.levels[0];
  int cliques = 0, twice = 0;
  for (uint32_t u = 0; u < l1.node_count() && cliques < 6; u += 37) {
    int component = 0;
    for (uint32_t n = 0; n < l1.node_count(); ++n) {
      component += l1.node_component[n] == l1.node_component[u];
    }
    if (component < 3) continue;
    uint32_t e = l1.edge_begin[u];
    while (e < l1.edge_begin[u + 1] && l1.edges[e].inter_zone) ++e;
    ASSERT_LT(e, l1.edge_begin[u + 1]) << "node " << u << " has no clique";
    const uint32_t v = l1.edges[e].target;
    Abstraction poked = flat;
    AbstractLevel& p1 = poked.levels[0];
    RemoveEdge(&p1, u, e);
    RemoveEdge(&p1, v, EdgeIndex(p1, v, u, false));
    ExpectLossOnThreads(SerializeWorld(World(world.grid(), poked)),
                        absl::StrCat("level 1 section edges: node ",
                                     std::min(u, v), " has ", component - 2,
                                     " intra-zone edges, its zone component "
                                     "has ",
                                     component,
                                     " nodes (each must be joined to "
                                     "every other)"));
    ++cliques;

    // The same edge twice: its successor re-pointed to its target.
    if (e + 1 < l1.edge_begin[u + 1] && !l1.edges[e + 1].inter_zone) {
      std::string bytes = SerializeWorld(world);
      Poke<uint32_t>(&bytes, kEdges, 1, e + 1, 0, v, 8);
      ExpectLossOnThreads(bytes, absl::StrCat("level 1 section edges: edge ",
                                              e + 1, " (node ", u,
                                              "): edges not sorted by target, "
                                              "or one listed twice"));
      ++twice;
    }
  }
  EXPECT_GE(cliques, 4);
  EXPECT_GE(twice, 1);
}

TEST(WorldConsistencyTest, EdgeCostsAndLevelTwoOffsetsThatLie) {
  const World world = CachedWorld();
  const Abstraction flat = world.FlatAbstraction();
  const AbstractLevel& l1 = flat.levels[0];
  uint32_t inter = 0;
  while (!l1.edges[inter].inter_zone) ++inter;
  std::string bytes = SerializeWorld(world);
  Poke<float>(&bytes, kEdges, 1, inter, 4, l1.edges[inter].cost * 0.5f, 8);
  ExpectLoss(bytes, "is not the step cost");

  bytes = SerializeWorld(world);
  const AbstractLevel& l2 = flat.levels[1];
  uint32_t n = 1;
  while (l2.edge_begin[n] == l2.edge_begin[n + 1]) ++n;
  Poke<uint32_t>(&bytes, kEdgeBegin, 2, n, 0, l2.edge_begin[n] + 1, 4);
  ExpectLoss(bytes, "level 2 section ");
}

TEST(WorldConsistencyTest, BeaconMovedOffItsEntrance) {
  const World world = CachedWorld();
  const Abstraction a = world.FlatAbstraction();
  for (uint32_t b = 0; b < a.beacons.size(); ++b) {
    for (int dy : {-1, 1}) {
      const Point q{a.beacons[b].x, a.beacons[b].y + dy};
      if (!world.grid().PassableOrFalse(q) ||
          a.levels[0].ZoneOf(q) != a.levels[0].ZoneOf(a.beacons[b])) {
        continue;
      }
      std::string bytes = SerializeWorld(world);
      Poke<int32_t>(&bytes, kBeacons, 0, b, 4, q.y, 8);
      absl::StatusOr<World> loaded = ParseWorld(bytes, "poked.zpw");
      ASSERT_FALSE(loaded.ok()) << "beacon " << b << " moved to " << q.y;
      EXPECT_EQ(loaded.status().code(), absl::StatusCode::kDataLoss);
      EXPECT_THAT(std::string(loaded.status().message()),
                  HasSubstr("level 1 section"));
      return;
    }
  }
  FAIL() << "no beacon to move";
}

TEST(WorldConsistencyTest, CachedPathLongerThanItsEdgeOrLeadingElsewhere) {
  const World world = CachedWorld();
  const Abstraction flat = world.FlatAbstraction();
  const CachedPaths& cached = flat.cached_paths;
  ASSERT_FALSE(cached.path_runs.empty());
  std::string longer = SerializeWorld(world);
  Poke<uint32_t>(&longer, kPathRuns, 1, 0, 0, cached.path_runs[0] + 8, 4);
  ExpectLoss(longer, "level 1 section path_runs: path of edge ");
  std::string turned = SerializeWorld(world);
  Poke<uint32_t>(&turned, kPathRuns, 1, 0, 0, cached.path_runs[0] ^ 4, 4);
  ExpectLoss(turned, "level 1 section path_runs: path of edge ");
}

TEST(WorldConsistencyTest, BuildParametersOutOfRange) {
  const std::string good = SerializeWorld(CachedWorld());
  struct Case {
    size_t at;
    int32_t value;
    const char* message;
  };
  for (const Case& c :
       {Case{44, 0, "header: entrance_threshold 0"},
        Case{44, 5000, "header: entrance_threshold 5000"},
        Case{32, 3, "header: zone_size 3"},
        Case{32, 0, "header: zone_size 0"},  // automatic: a build setting only
        Case{36, 9, "header: levels 9"}, Case{40, 65, "header: group 65"},
        Case{56, 1, "header: beacon_spacing 1"},
        Case{56, 1025, "header: beacon_spacing 1025"}}) {
    std::string bytes = good;
    std::memcpy(bytes.data() + c.at, &c.value, 4);
    fuzz::RepairChecksums(&bytes);
    ExpectLoss(bytes, c.message);
  }
}

}  // namespace
}  // namespace zonepath
