// The compact form of an abstraction: what it gives back is the abstraction
// it was made from, array for array, on every kind, level count and
// connectivity; what it cannot say it refuses; damaged bytes are errors
// naming the field, never a crash.
#include "zonepath/world/compact_abstraction.h"

#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/world/world_file.h"

namespace zonepath {
namespace {

struct Case {
  MapKind kind;
  int32_t width, height, zone_size, levels, spacing;
  Connectivity connectivity;
  uint64_t seed;
};

World Build(const Case& c, bool cache_paths = false, bool tables = true) {
  MapGenOptions g;
  g.kind = c.kind;
  g.width = c.width;
  g.height = c.height;
  g.seed = c.seed;
  BuildOptions o;
  o.params.zone_size = c.zone_size;
  o.params.levels = c.levels;
  o.params.group = 2;
  o.params.beacon_spacing = c.spacing;
  o.params.connectivity = c.connectivity;
  o.params.cache_paths = cache_paths;
  o.connection_tables = tables;
  o.threads = 2;
  absl::StatusOr<Grid> grid = GenerateMap(g);
  EXPECT_TRUE(grid.ok()) << grid.status();
  absl::StatusOr<World> world = BuildWorld(*std::move(grid), o);
  EXPECT_TRUE(world.ok()) << world.status();
  return *std::move(world);
}

std::string WorldBytes(const Grid& grid, const CompactWorld& decoded) {
  std::ostringstream out;
  const std::unique_ptr<ConnectionTables> tables = decoded.Tables();
  EXPECT_TRUE(
      WriteWorldWithoutGrid(grid, decoded.flat, tables.get(), out).ok());
  return std::move(out).str();
}

TEST(CompactAbstractionTest, GivesBackTheAbstractionItWasMadeFrom) {
  const Case cases[] = {
      {MapKind::kRooms, 70, 50, 8, 3, 0, Connectivity::kEight, 1},
      {MapKind::kTerrain, 96, 64, 8, 3, 0, Connectivity::kEight, 2},
      {MapKind::kMaze, 64, 64, 8, 2, 0, Connectivity::kEight, 3},
      {MapKind::kMaze, 256, 256, 16, 2, 0, Connectivity::kEight, 8},
      {MapKind::kRandom, 80, 40, 8, 1, 0, Connectivity::kEight, 4},
      {MapKind::kRooms, 70, 50, 8, 3, 0, Connectivity::kFour, 5},
      {MapKind::kMixed, 128, 96, 16, 3, 4, Connectivity::kEight, 6},
      {MapKind::kTerrain, 130, 70, 8, 4, 2, Connectivity::kFour, 7},
  };
  int with_tables = 0;
  for (const Case& c : cases) {
    const std::string context =
        absl::StrCat(MapKindName(c.kind), " ", c.width, "x", c.height, " seed ",
                     c.seed, " levels ", c.levels);
    const World world = Build(c);
    if (world.connection_tables() != nullptr) ++with_tables;
    absl::StatusOr<std::string> bytes = EncodeCompactAbstraction(
        world.FlatAbstraction(), c.width, c.height, world.connection_tables());
    ASSERT_TRUE(bytes.ok()) << context << ": " << bytes.status();
    absl::StatusOr<CompactWorld> back =
        DecodeCompactAbstraction(*bytes, c.width, c.height, "test");
    ASSERT_TRUE(back.ok()) << context << ": " << back.status();
    // The world file it stands for, byte for byte.
    std::ostringstream original;
    ASSERT_TRUE(WriteWorldWithoutGrid(world, original).ok());
    EXPECT_EQ(WorldBytes(world.grid(), *back), original.str()) << context;
    // Smaller than the world file's abstraction sections without their
    // padding (edges once, targets implied), mazes' many components too.
    WorldFileSizes sizes;
    std::ostringstream unused;
    ASSERT_TRUE(WriteWorldWithoutGrid(world, unused, &sizes).ok());
    EXPECT_LT(bytes->size(),
              sizes.abstraction * 3 / 5 + sizes.connection_tables)
        << context;
    // And it parses on the grid to the same world.
    absl::StatusOr<World> parsed = ParseWorldOnGrid(
        WorldBytes(world.grid(), *back), "test", LoadOptions{}, world.grid());
    ASSERT_TRUE(parsed.ok()) << context << ": " << parsed.status();
    EXPECT_EQ(SerializeWorld(*parsed), SerializeWorld(world)) << context;
  }
  EXPECT_GT(with_tables, 0);  // tables rode along in some
}

// The encoder refuses `flat` (FailedPrecondition) saying `why`.
void ExpectRefused(const Abstraction& flat, const Case& c,
                   const std::string& why) {
  const absl::StatusOr<std::string> refused =
      EncodeCompactAbstraction(flat, c.width, c.height);
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find(why), std::string::npos)
      << refused.status();
}

TEST(CompactAbstractionTest, RefusesWhatItCannotSay) {
  const Case c{MapKind::kRooms, 70, 50, 8, 2, 0, Connectivity::kEight, 1};
  // Cached paths.
  const World cached = Build(c, /*cache_paths=*/true);
  EXPECT_EQ(
      EncodeCompactAbstraction(cached.FlatAbstraction(), c.width, c.height)
          .status()
          .code(),
      absl::StatusCode::kFailedPrecondition);
  const Abstraction flat = Build(c).FlatAbstraction();
  // A cost that differs by direction.
  {
    Abstraction one_way = flat;
    AbstractLevel& level = one_way.levels[0];
    bool changed = false;
    for (AbstractEdge& e : level.edges) {
      if (!e.inter_zone) {
        e.cost += 1.0f;
        changed = true;
        break;
      }
    }
    ASSERT_TRUE(changed);
    ExpectRefused(one_way, c, "level 1");
  }
  // A crossing only one way: its reverse given a different cost.
  {
    Abstraction one_way = flat;
    AbstractLevel& level = one_way.levels[0];
    bool changed = false;
    for (uint32_t u = 0; u < level.node_count() && !changed; ++u) {
      for (uint32_t k = level.edge_begin[u]; k < level.edge_begin[u + 1]; ++k) {
        if (level.edges[k].inter_zone && level.edges[k].target < u) {
          level.edges[k].cost *= 2;
          changed = true;
          break;
        }
      }
    }
    ASSERT_TRUE(changed);
    EXPECT_EQ(
        EncodeCompactAbstraction(one_way, c.width, c.height).status().code(),
        absl::StatusCode::kFailedPrecondition);
  }
}

TEST(CompactAbstractionTest, DamagedBytesAreErrorsNamingTheField) {
  const Case c{MapKind::kTerrain, 96, 64, 8, 3, 0, Connectivity::kEight, 2};
  const World world = Build(c);
  // Without tables: the pokes below know where level 1 starts.
  const std::string bytes =
      *EncodeCompactAbstraction(world.FlatAbstraction(), c.width, c.height);
  auto message = [](const absl::StatusOr<CompactWorld>& a) {
    return std::string(a.status().message());
  };
  // Every truncation, and one byte too many.
  for (size_t n = 0; n < bytes.size(); ++n) {
    const absl::StatusOr<CompactWorld> a =
        DecodeCompactAbstraction(bytes.substr(0, n), c.width, c.height, "w");
    ASSERT_FALSE(a.ok()) << n;
    EXPECT_EQ(a.status().code(), absl::StatusCode::kDataLoss) << n;
  }
  EXPECT_FALSE(
      DecodeCompactAbstraction(bytes + "x", c.width, c.height, "w").ok());
  // Another grid size.
  EXPECT_NE(message(DecodeCompactAbstraction(bytes, c.width + 1, c.height,
                                             "w.zpa: class tank"))
                .find("w.zpa: class tank: compact abstraction: header: "
                      "width/height"),
            std::string::npos);
  struct Poke {
    size_t at;
    uint32_t value;
    std::string expect;
  };
  // Header: magic 0, version 8, width 12, height 16, zone_size 20,
  // levels 24, group 28, beacon_count 44; level 1's head at 56 + beacons.
  uint32_t beacon_count;
  std::memcpy(&beacon_count, bytes.data() + 44, 4);
  const size_t level1 = 56 + size_t{beacon_count} * 4;
  for (const Poke& p : {
           Poke{8, 9, "version 9"},
           Poke{20, 3, "header: zone_size 3"},
           Poke{20, 0, "header: zone_size 0"},
           Poke{24, 9, "header: levels 9"},
           Poke{28, 65, "header: group 65"},
           Poke{level1, 0x80000000u, "level 1: node_count"},
           Poke{level1 + 8, 2, "level 1: node_beacon_is_id 2"},
           Poke{level1 + 16, 5, "level 1: zone_node_begin runs from 5"},
       }) {
    std::string bad = bytes;
    std::memcpy(bad.data() + p.at, &p.value, 4);
    const absl::StatusOr<CompactWorld> a =
        DecodeCompactAbstraction(bad, c.width, c.height, "w");
    ASSERT_FALSE(a.ok()) << p.expect;
    EXPECT_NE(message(a).find(p.expect), std::string::npos) << message(a);
  }
  // Crossings: level 1's start after its head and zone_node_begin (node n
  // is beacon n on level 1: no node_beacon).
  uint32_t node_count;
  std::memcpy(&node_count, bytes.data() + level1, 4);
  const size_t zones1 = (96 / 8) * (64 / 8);
  const size_t crossings = level1 + 16 + (zones1 + 1) * 4;
  struct Crossing {
    uint32_t a, b;
    float cost;
  };
  Crossing first, second;
  std::memcpy(&first, bytes.data() + crossings, 12);
  std::memcpy(&second, bytes.data() + crossings + 12, 12);
  for (const Crossing& bad_crossing :
       {Crossing{first.a, node_count, first.cost},
        Crossing{first.b, first.a, first.cost},
        Crossing{first.a, first.b, 0.0f},
        Crossing{first.a, first.b, -std::numeric_limits<float>::infinity()},
        Crossing{first.a, first.b, std::numeric_limits<float>::infinity()}}) {
    std::string bad = bytes;
    std::memcpy(bad.data() + crossings, &bad_crossing, 12);
    const absl::StatusOr<CompactWorld> a =
        DecodeCompactAbstraction(bad, c.width, c.height, "w");
    ASSERT_FALSE(a.ok()) << bad_crossing.a << " " << bad_crossing.b;
    EXPECT_NE(message(a).find("level 1: crossing 0 ("), std::string::npos)
        << message(a);
  }
  {
    // The second crossing equal to the first: out of order.
    std::string bad = bytes;
    std::memcpy(bad.data() + crossings + 12, &first, 12);
    const absl::StatusOr<CompactWorld> a =
        DecodeCompactAbstraction(bad, c.width, c.height, "w");
    ASSERT_FALSE(a.ok());
    EXPECT_NE(message(a).find("level 1: crossing 1 ("), std::string::npos)
        << message(a);
  }
  {
    // A node count the zones do not add up to.
    std::string bad = bytes;
    const uint32_t many = 0x7FFFFFF0u;
    std::memcpy(bad.data() + level1, &many, 4);
    const absl::StatusOr<CompactWorld> a =
        DecodeCompactAbstraction(bad, c.width, c.height, "w");
    ASSERT_FALSE(a.ok());
    EXPECT_NE(message(a).find("zone_node_begin runs from 0 to"),
              std::string::npos)
        << message(a);
  }
  {
    // Tables: a level that has none named in the header.
    ASSERT_NE(world.connection_tables(), nullptr);
    std::string with = *EncodeCompactAbstraction(
        world.FlatAbstraction(), c.width, c.height, world.connection_tables());
    uint32_t table_levels;
    std::memcpy(&table_levels, with.data() + 48, 4);
    EXPECT_EQ(table_levels, 1u << 3);
    const uint32_t level_two = 1u << 2;
    std::memcpy(with.data() + 48, &level_two, 4);
    const absl::StatusOr<CompactWorld> a =
        DecodeCompactAbstraction(with, c.width, c.height, "w");
    ASSERT_FALSE(a.ok());
    EXPECT_NE(message(a).find("header: table_levels 4 names a level without "
                              "tables (levels 3..3)"),
              std::string::npos)
        << message(a);
  }
  // A NaN cost in the last clique.
  {
    std::string bad = bytes;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(bad.data() + bad.size() - 4, &nan, 4);
    const absl::StatusOr<CompactWorld> a =
        DecodeCompactAbstraction(bad, c.width, c.height, "w");
    ASSERT_FALSE(a.ok());
    EXPECT_NE(message(a).find("is nan, not finite and > 0"), std::string::npos)
        << message(a);
  }
  // Random flips: an error, or an abstraction whose world file the world
  // parser checks (and may refuse); never a crash.
  std::mt19937_64 rng(11);
  int refused = 0, parsed = 0;
  for (int i = 0; i < 2000; ++i) {
    std::string bad = bytes;
    for (int k = 0; k < 1 + static_cast<int>(rng() % 3); ++k) {
      bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
    }
    const absl::StatusOr<CompactWorld> a =
        DecodeCompactAbstraction(bad, c.width, c.height, "flip");
    if (!a.ok()) {
      ++refused;
      continue;
    }
    if (ParseWorldOnGrid(WorldBytes(world.grid(), *a), "flip", LoadOptions{},
                         world.grid())
            .ok()) {
      ++parsed;
    }
  }
  EXPECT_GT(refused, 0);
  std::printf("2000 flips: %d refused by the decoder, %d parsed\n", refused,
              parsed);
}

// A maze world: zones of several components, so split zones.
const Case kMaze{MapKind::kMaze, 64, 64, 8, 2, 0, Connectivity::kEight, 3};

// Two nodes of one level-1 zone in different components (a maze has them).
bool FindSplitPair(const AbstractLevel& level, uint32_t* u, uint32_t* v) {
  for (uint32_t z = 0; z < level.zone_count(); ++z) {
    for (uint32_t a = level.zone_node_begin[z];
         a < level.zone_node_begin[z + 1]; ++a) {
      for (uint32_t b = a + 1; b < level.zone_node_begin[z + 1]; ++b) {
        if (level.node_component[a] != level.node_component[b]) {
          *u = a;
          *v = b;
          return true;
        }
      }
    }
  }
  return false;
}

TEST(CompactAbstractionTest, RefusesComponentsThatAreNotCliques) {
  const Abstraction flat = Build(kMaze).FlatAbstraction();
  uint32_t u = 0, v = 0;
  ASSERT_TRUE(FindSplitPair(flat.levels[0], &u, &v));
  {
    // Two components labelled one: their pairs have no edges.
    Abstraction merged = flat;
    std::vector<uint32_t>& label = merged.levels[0].node_component;
    const uint32_t from = label[v];
    for (uint32_t& l : label) {
      if (l == from) l = label[u];
    }
    ExpectRefused(merged, kMaze, "an edge missing inside a component");
  }
  {
    // A node with edges to its component labelled apart from it.
    Abstraction apart = flat;
    const AbstractLevel& level = flat.levels[0];
    bool found = false;
    for (uint32_t x = 0; x < level.node_count() && !found; ++x) {
      if (level.node_component[x] == x) continue;  // its component's first
      for (uint32_t k = level.edge_begin[x]; k < level.edge_begin[x + 1]; ++k) {
        if (!level.edges[k].inter_zone) {
          apart.levels[0].node_component[x] = x;
          found = true;
          break;
        }
      }
    }
    ASSERT_TRUE(found);
    ExpectRefused(apart, kMaze, "leaves its zone or component");
  }
}

// Where level 1's parts start in an encoding of a world without tables.
struct LevelOneParts {
  uint32_t node_count, crossing_count, split_count;
  size_t zone_node_begin, split_zones, numbers;
};

LevelOneParts LocateLevelOne(const std::string& bytes, uint64_t zones) {
  LevelOneParts p;
  uint32_t beacon_count, is_id;
  std::memcpy(&beacon_count, bytes.data() + 44, 4);
  const size_t head = 56 + size_t{beacon_count} * 4;
  std::memcpy(&p.node_count, bytes.data() + head, 4);
  std::memcpy(&p.crossing_count, bytes.data() + head + 4, 4);
  std::memcpy(&is_id, bytes.data() + head + 8, 4);
  std::memcpy(&p.split_count, bytes.data() + head + 12, 4);
  p.zone_node_begin = head + 16;
  p.split_zones = p.zone_node_begin + (zones + 1) * 4 +
                  (is_id == 1 ? 0 : size_t{p.node_count} * 4) +
                  size_t{p.crossing_count} * 12;
  p.numbers = p.split_zones + size_t{p.split_count} * 4;
  return p;
}

TEST(CompactAbstractionTest, DamagedSplitZonesAreErrors) {
  const World world = Build(kMaze, false, /*tables=*/false);
  const std::string bytes = *EncodeCompactAbstraction(
      world.FlatAbstraction(), kMaze.width, kMaze.height);
  const uint64_t zones = world.FlatAbstraction().levels[0].zone_count();
  const LevelOneParts p = LocateLevelOne(bytes, zones);
  ASSERT_GE(p.split_count, 2u);
  uint32_t first_zone, zone_begin[2];
  std::memcpy(&first_zone, bytes.data() + p.split_zones, 4);
  std::memcpy(zone_begin, bytes.data() + p.zone_node_begin + first_zone * 4, 8);
  const uint32_t n = zone_begin[1] - zone_begin[0];
  auto decode = [&](const std::string& bad) {
    const absl::StatusOr<CompactWorld> a =
        DecodeCompactAbstraction(bad, kMaze.width, kMaze.height, "w");
    return a.ok() ? std::string("decoded") : std::string(a.status().message());
  };
  {
    // The first node numbered 1: the same partition, another numbering.
    std::string bad = bytes;
    const uint32_t one = 1;
    std::memcpy(bad.data() + p.numbers, &one, 4);
    EXPECT_NE(decode(bad).find("component number 1 skips ahead"),
              std::string::npos)
        << decode(bad);
  }
  {
    // Every node of a split zone in one component.
    std::string bad = bytes;
    const std::vector<uint32_t> zeros(n, 0);
    std::memcpy(bad.data() + p.numbers, zeros.data(), n * 4);
    EXPECT_NE(decode(bad).find(absl::StrCat("split zone ", first_zone,
                                            " has 1 component(s)")),
              std::string::npos)
        << decode(bad);
  }
  {
    // The second split zone the same as the first.
    std::string bad = bytes;
    std::memcpy(bad.data() + p.split_zones + 4, &first_zone, 4);
    EXPECT_NE(decode(bad).find("level 1: split zone 1 (zone"),
              std::string::npos)
        << decode(bad);
  }
}

}  // namespace
}  // namespace zonepath
