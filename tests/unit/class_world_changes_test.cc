// Per-class worlds follow terrain changes: after each random batch of
// terrain changes (cells, blocks, walls; any terrain type, blocked
// included), ApplyTerrainChanges on every class's world gives the bytes a
// full build of the changed terrain's class grid gives, for square classes
// of sides 1..4, a rectangle, and capability classes. Seeds are printed on
// failure.
#include "zonepath/agents/class_world_changes.h"

#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "zonepath/agents/class_grid.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/world/world_file.h"

namespace zonepath {
namespace {

// Terrain types 1..6 of the mixed kind (road, grass, forest, hills,
// shallow, deep water).
std::vector<AgentClass> Classes() {
  std::vector<AgentClass> out;
  auto make = [](std::string name, int w, int l, std::vector<int> costs) {
    AgentClass a;
    a.name = std::move(name);
    a.width = w;
    a.length = l;
    for (size_t t = 0; t < costs.size(); ++t) {
      a.cost_of_type[t + 1] = static_cast<uint8_t>(costs[t]);
    }
    return a;
  };
  for (int s = 1; s <= 4; ++s) {
    out.push_back(make(absl::StrCat("square", s), s, s, {1, 2, 3, 4, 6, 0}));
  }
  out.push_back(make("rect3x2", 3, 2, {1, 1, 2, 2, 0, 0}));
  out.push_back(make("tank", 2, 2, {1, 1, 0, 3, 0, 0}));
  out.push_back(make("boat", 1, 1, {0, 0, 0, 0, 2, 1}));
  // Oriented: their worlds are built on the guide grid (DeriveGuideGrid).
  AgentClass cart = make("cart", 1, 2, {1, 1, 2, 3, 0, 0});
  cart.oriented = true;
  cart.connectivity = Connectivity::kFour;
  out.push_back(cart);
  AgentClass ship = make("ship", 2, 3, {0, 0, 0, 0, 2, 1});
  ship.oriented = true;
  out.push_back(ship);
  return out;
}

std::vector<Grid::CellCost> RandomTerrainBatch(const Grid& g,
                                               std::mt19937_64& rng) {
  std::vector<Grid::CellCost> changes;
  const uint8_t type = static_cast<uint8_t>(rng() % 7);
  auto add = [&](int32_t x, int32_t y) {
    if (g.InBounds({x, y})) changes.push_back({g.Index({x, y}), type});
  };
  const int32_t x = static_cast<int32_t>(rng() % g.width());
  const int32_t y = static_cast<int32_t>(rng() % g.height());
  switch (rng() % 3) {
    case 0:
      add(x, y);
      break;
    case 1:
      for (int32_t j = 0; j < 4; ++j) {
        for (int32_t i = 0; i < 5; ++i) add(x + i, y + j);
      }
      break;
    default:
      for (int32_t i = 0; i < 40; ++i) add(x + i, y);
  }
  return changes;
}

TEST(ClassWorldChangesTest, EqualAFullBuildOfTheChangedTerrain) {
  BuildOptions o;
  o.params.zone_size = 16;
  o.params.levels = 2;
  o.threads = 1;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    MapGenOptions g;
    g.kind = MapKind::kMixed;
    g.width = 150;
    g.height = 130;
    g.seed = seed;
    Grid terrain = *GenerateMap(g);
    const std::vector<AgentClass> classes = Classes();
    std::vector<World> worlds;
    for (const AgentClass& c : classes) {
      BuildOptions own = o;
      own.params.connectivity = c.connectivity;
      worlds.push_back(*BuildWorld(*DeriveGuideGrid(terrain, c), own));
    }
    std::mt19937_64 rng(seed * 31);
    int64_t class_cells_changed = 0;
    for (int batch = 0; batch < 6; ++batch) {
      const std::vector<Grid::CellCost> batch_changes =
          RandomTerrainBatch(terrain, rng);
      std::vector<Point> cells;
      for (const Grid::CellCost& c : batch_changes) {
        cells.push_back(terrain.ToPoint(c.cell));
      }
      const Grid after = terrain.WithCosts(batch_changes);
      for (size_t k = 0; k < classes.size(); ++k) {
        const std::string context = absl::StrCat(
            "seed ", seed, " batch ", batch, " class ", classes[k].name);
        UpdateReport report;
        absl::StatusOr<World> next = ApplyTerrainChanges(
            worlds[k], after, classes[k], cells, {}, &report);
        ASSERT_TRUE(next.ok()) << context << ": " << next.status();
        class_cells_changed += report.changed_cells;
        BuildOptions own = o;
        own.params.connectivity = classes[k].connectivity;
        const World rebuilt =
            *BuildWorld(*DeriveGuideGrid(after, classes[k]), own);
        ASSERT_EQ(next->grid().CostVector(), rebuilt.grid().CostVector())
            << context;
        ASSERT_EQ(SerializeWorld(*next), SerializeWorld(rebuilt)) << context;
        worlds[k] = *std::move(next);
      }
      terrain = after;
    }
    EXPECT_GT(class_cells_changed, 0) << "seed " << seed;
  }
}

TEST(ClassWorldChangesTest, RejectsCellsOutside) {
  const Grid terrain = *Grid::Create(20, 20, std::vector<uint8_t>(400, 1));
  const std::vector<Point> outside = {{3, 3}, {20, 1}};
  absl::StatusOr<std::vector<CellChange>> bad =
      ClassGridChanges(terrain, terrain, AgentClass::Default(), outside);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.status().message()).find("changed cell 1 (20,1)"),
            std::string::npos)
      << bad.status();
  const Grid smaller = *Grid::Create(10, 20, std::vector<uint8_t>(200, 1));
  EXPECT_FALSE(
      ClassGridChanges(terrain, smaller, AgentClass::Default(), {}).ok());
}

}  // namespace
}  // namespace zonepath
