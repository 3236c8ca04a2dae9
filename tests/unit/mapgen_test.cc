#include "gtest/gtest.h"
#include "zonepath/mapgen/generators.h"

namespace zonepath {
namespace {

TEST(MapGenTest, DeterministicBySeedAndDifferentAcrossSeeds) {
  for (MapKind kind :
       {MapKind::kRooms, MapKind::kMaze, MapKind::kRandom, MapKind::kTerrain}) {
    MapGenOptions o;
    o.kind = kind;
    o.width = 97;
    o.height = 61;
    o.seed = 11;
    const Grid a = *GenerateMap(o);
    const Grid b = *GenerateMap(o);
    EXPECT_EQ(a.CostVector(), b.CostVector()) << MapKindName(kind);
    o.seed = 12;
    EXPECT_NE(GenerateMap(o)->CostVector(), a.CostVector())
        << MapKindName(kind);
    EXPECT_GT(a.passable_count(), 0) << MapKindName(kind);
  }
}

TEST(MapGenTest, RoomsAndMazesAreConnected) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    for (MapKind kind : {MapKind::kRooms, MapKind::kMaze}) {
      MapGenOptions o;
      o.kind = kind;
      o.width = 50 + seed * 7;
      o.height = 40 + seed * 5;
      o.seed = seed;
      o.feature = kind == MapKind::kRooms ? 8 : 2;
      EXPECT_EQ(GenerateMap(o)->component_count(), 1u)
          << MapKindName(kind) << " seed " << seed;
    }
  }
}

TEST(MapGenTest, RejectsBadOptions) {
  MapGenOptions o;
  o.width = 0;
  EXPECT_FALSE(GenerateMap(o).ok());
  o.width = 10;
  o.density = 2;
  EXPECT_FALSE(GenerateMap(o).ok());
  EXPECT_FALSE(ParseMapKind("castle").has_value());
}

}  // namespace
}  // namespace zonepath
