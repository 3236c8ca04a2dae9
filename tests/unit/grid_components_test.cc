// Component labels (per-tile labels by component plus a table into global
// components)
// against a flood-fill oracle on worlds of many label tiles: fresh grids,
// after random sequences of changes (single cells, blocks, walls along tile
// borders, scatters; blocked, opened, re-costed), and after an update is
// saved and loaded. Seeds and sizes are printed on failure.
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "component_oracle.h"
#include "gtest/gtest.h"
#include "zonepath/grid/grid.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/update/world_changes.h"
#include "zonepath/world/world_file.h"

namespace zonepath {
namespace {

using testing::ExpectLabelsMatchFloodFill;

Grid RandomWorld(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int width = 65 + static_cast<int>(rng() % 200);
  const int height = 65 + static_cast<int>(rng() % 150);
  std::vector<uint8_t> costs(static_cast<size_t>(width) * height);
  switch (seed % 4) {
    case 0:
    case 1: {  // random, around the percolation threshold and below
      const double blocked = 0.2 + 0.05 * static_cast<double>(rng() % 6);
      std::uniform_real_distribution<double> unit(0, 1);
      for (uint8_t& c : costs) {
        c = unit(rng) < blocked ? 0 : static_cast<uint8_t>(1 + rng() % 3);
      }
      break;
    }
    case 2: {  // generated rooms or maze
      MapGenOptions o;
      o.kind = (rng() & 1) != 0 ? MapKind::kRooms : MapKind::kMaze;
      o.width = width;
      o.height = height;
      o.seed = seed;
      return *GenerateMap(o);
    }
    default: {  // open ground with a checkerboard patch (2048 per tile)
      std::fill(costs.begin(), costs.end(), 1);
      for (int y = 0; y < 64; ++y) {
        for (int x = 0; x < 64; ++x) {
          costs[static_cast<size_t>(y) * width + x] = (x + y) % 2 == 0;
        }
      }
    }
  }
  return *Grid::Create(width, height, std::move(costs));
}

// A random batch: a cell, a block, a wall along a label-tile border, or a
// scatter; each blocked, opened or re-costed.
std::vector<Grid::CellCost> RandomBatch(const Grid& grid,
                                        std::mt19937_64& rng) {
  std::vector<Grid::CellCost> changes;
  const uint8_t cost =
      rng() % 3 == 0 ? kBlocked : static_cast<uint8_t>(1 + rng() % 4);
  auto add = [&](int32_t x, int32_t y) {
    if (grid.InBounds({x, y})) changes.push_back({grid.Index({x, y}), cost});
  };
  const int32_t x = static_cast<int32_t>(rng() % grid.width());
  const int32_t y = static_cast<int32_t>(rng() % grid.height());
  switch (rng() % 4) {
    case 0:
      add(x, y);
      break;
    case 1: {
      const int32_t w = 1 + static_cast<int32_t>(rng() % 12);
      const int32_t h = 1 + static_cast<int32_t>(rng() % 12);
      for (int32_t j = 0; j < h; ++j) {
        for (int32_t i = 0; i < w; ++i) add(x + i, y + j);
      }
      break;
    }
    case 2: {
      const int32_t line = Grid::kLabelTileSide - 1 + (rng() & 1);
      const int32_t length = 1 + static_cast<int32_t>(rng() % 90);
      for (int32_t i = 0; i < length; ++i) {
        if ((rng() & 1) != 0) {
          add(line, y + i);
        } else {
          add(x + i, line);
        }
      }
      break;
    }
    default:
      for (int i = 0; i < 40; ++i) {
        add(static_cast<int32_t>(rng() % grid.width()),
            static_cast<int32_t>(rng() % grid.height()));
      }
  }
  return changes;
}

TEST(GridComponentsTest, MatchFloodFillOnManyTileWorlds) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const Grid grid = RandomWorld(seed);
    ExpectLabelsMatchFloodFill(grid, "seed " + std::to_string(seed) + " " +
                                         std::to_string(grid.width()) + "x" +
                                         std::to_string(grid.height()));
    if (HasFatalFailure()) return;
  }
}

TEST(GridComponentsTest, MatchFloodFillAfterRandomSequencesOfChanges) {
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    Grid grid = RandomWorld(seed);
    std::mt19937_64 rng(seed * 7919);
    for (int batch = 0; batch < 40; ++batch) {
      grid = grid.WithCosts(RandomBatch(grid, rng));
      ExpectLabelsMatchFloodFill(grid, "seed " + std::to_string(seed) +
                                           " batch " + std::to_string(batch));
      if (HasFatalFailure()) return;
    }
  }
}

// The stored form (what a world file holds) is canonical: after any
// sequence of changes it equals a fresh labelling of the same cells, and a
// grid made from it without labelling answers like the flood fill.
TEST(GridComponentsTest, StoredComponentsAreCanonicalAfterChanges) {
  for (uint64_t seed = 1; seed <= 16; ++seed) {
    Grid grid = RandomWorld(seed);
    std::mt19937_64 rng(seed * 104729);
    for (int batch = 0; batch < 30; ++batch) {
      grid = grid.WithCosts(RandomBatch(grid, rng));
      const std::string context =
          "seed " + std::to_string(seed) + " batch " + std::to_string(batch);
      const Grid fresh =
          *Grid::Create(grid.width(), grid.height(), grid.CostVector());
      ASSERT_TRUE(grid.SameComponentsAs(fresh)) << context;
      absl::StatusOr<Grid> stored = Grid::CreateWithComponents(
          grid.width(), grid.height(),
          CowArray<uint8_t>::FromVector(grid.CostVector()), grid.Components());
      ASSERT_TRUE(stored.ok()) << context << ": " << stored.status();
      EXPECT_EQ(stored->passable_count(), fresh.passable_count()) << context;
      EXPECT_EQ(stored->min_cost(), fresh.min_cost()) << context;
      ExpectLabelsMatchFloodFill(*stored, context + " stored");
      if (HasFatalFailure()) return;
    }
  }
}

// Stored components are checked for everything an access relies on: each
// broken field is refused by name, and a check that cannot fail would show
// here as an accepted case.
TEST(GridComponentsTest, BrokenStoredComponentsAreRefused) {
  // Seed 3: a 64 x 64 checkerboard tile (2048 components, 16-bit labels)
  // in open ground; seed 1: random terrain with tiles of 3, 5, ... labels.
  for (uint64_t seed : {1, 3}) {
    const Grid grid = RandomWorld(seed);
    const auto costs = [&] {
      return CowArray<uint8_t>::FromVector(grid.CostVector());
    };
    auto refused = [&](Grid::StoredComponents s, const std::string& why) {
      absl::StatusOr<Grid> g = Grid::CreateWithComponents(
          grid.width(), grid.height(), costs(), std::move(s));
      EXPECT_FALSE(g.ok()) << "seed " << seed << ": accepted " << why;
      if (!g.ok()) {
        EXPECT_EQ(g.status().code(), absl::StatusCode::kInvalidArgument);
        EXPECT_NE(std::string(g.status().message()).find(why),
                  std::string::npos)
            << g.status();
      }
    };
    ASSERT_TRUE(Grid::CreateWithComponents(grid.width(), grid.height(), costs(),
                                           grid.Components())
                    .ok());
    const Grid::StoredComponents good = grid.Components();
    // A tile whose label values can exceed its count (bits wider than
    // needed), with one open cell given the largest value.
    uint32_t loose = 0;
    while (loose < good.tiles.size() &&
           (good.tiles[loose].bits == 0 ||
            (1u << good.tiles[loose].bits) == good.tiles[loose].local_count)) {
      ++loose;
    }
    ASSERT_LT(loose, good.tiles.size()) << "seed " << seed;
    {
      Grid::StoredComponents s = good;
      s.tiles.Mutable(loose).bits = 8 + (s.tiles[loose].bits == 8 ? 8 : 0);
      refused(s, "is not the canonical record");
    }
    {
      Grid::StoredComponents s = good;
      s.tiles.Mutable(1).first_local += 1;
      refused(s, "is not the canonical record");
    }
    {
      Grid::StoredComponents s = good;
      // The tile's first byte all ones: its first cell's label is the
      // largest the width allows, at least the tile's count.
      const Grid::TileLabels t = s.tiles[loose];
      s.cell_labels.Set(t.byte_offset, 0xFF);
      if (t.bits == 16) s.cell_labels.Set(t.byte_offset + 1, 0xFF);
      refused(s, "components");  // "has label L, the tile has N components"
    }
    {
      Grid::StoredComponents s = good;
      s.cell_labels.PushBack(0);
      refused(s, "cell labels:");
    }
    {
      Grid::StoredComponents s = good;
      s.local_global.PushBack(0);
      refused(s, "local-to-global table:");
    }
    {
      Grid::StoredComponents s = good;
      s.local_global.Set(0, 5);  // the first entry must be component 0
      refused(s, "order of first appearance");
    }
    {
      Grid::StoredComponents s = good;
      s.component_count += 1;
      refused(s, "component count");
    }
    {
      Grid::StoredComponents s = good;
      s.cost_counts[1] += 1;
      refused(s, "cost counts");
    }
    {
      Grid::StoredComponents s = good;
      s.cost_counts[0] = -1;
      refused(s, "cost counts");
    }
    {
      Grid::StoredComponents s = good;
      s.tiles.PushBack(Grid::TileLabels{});
      refused(s, "label tiles:");
    }
  }
  // Two labels of one tile naming one component (labels by piece, not by
  // component): a wall across two tiles makes components top (0) and
  // bottom (1) in both; the second tile's bottom label renamed to top.
  {
    std::vector<uint8_t> walled(128 * 64, 1);
    for (int x = 0; x < 128; ++x) walled[32 * 128 + x] = 0;
    const Grid grid = *Grid::Create(128, 64, walled);
    Grid::StoredComponents s = grid.Components();
    ASSERT_EQ(s.component_count, 2u);
    ASSERT_EQ(s.tiles[1].local_count, 2);
    s.local_global.Set(s.tiles[1].first_local + 1, 0);
    absl::StatusOr<Grid> g = Grid::CreateWithComponents(
        128, 64, CowArray<uint8_t>::FromVector(walled), std::move(s));
    ASSERT_FALSE(g.ok());
    EXPECT_NE(std::string(g.status().message()).find("two labels name"),
              std::string::npos)
        << g.status();
  }
  // A tile said to have no component must have no open cell.
  std::vector<uint8_t> costs(128 * 64, 0);
  costs[70] = 1;  // one open cell in the second tile
  const Grid two = *Grid::Create(128, 64, costs);
  Grid::StoredComponents s = two.Components();
  ASSERT_EQ(s.tiles[1].local_count, 1);
  s.tiles.Mutable(1).local_count = 0;
  s.local_global = CowArray<uint32_t>();
  s.component_count = 0;
  absl::StatusOr<Grid> g = Grid::CreateWithComponents(
      128, 64, CowArray<uint8_t>::FromVector(costs), std::move(s));
  ASSERT_FALSE(g.ok());
  EXPECT_NE(std::string(g.status().message()).find("has an open cell"),
            std::string::npos)
      << g.status();
}

// Labels cost (almost) nothing where a tile is one component: an open
// world's labels are the tile records and table, under 0.01 bytes a cell.
TEST(GridComponentsTest, OneComponentTilesStoreNoCellLabels) {
  const Grid open = *Grid::Create(640, 640, std::vector<uint8_t>(640 * 640, 1));
  EXPECT_EQ(open.component_count(), 1u);
  EXPECT_LT(open.ComponentBytes(), 640 * 640 / 100);
}

// A maze cuts every tile into many pieces, all of one component: tiles
// label by component, so no cell stores a label. Closing corridor cells
// splits the maze; pieces of one tile then belong to different components
// and must get labels again, matching the flood fill.
TEST(GridComponentsTest, TilesOfOneComponentStoreNoCellLabelsUntilItSplits) {
  MapGenOptions o;
  o.kind = MapKind::kMaze;
  o.width = 320;
  o.height = 256;
  o.seed = 5;
  Grid grid = *GenerateMap(o);
  ASSERT_EQ(grid.component_count(), 1u);
  const uint32_t tiles = 5 * 4;
  EXPECT_EQ(grid.Components().cell_labels.size(), 0u);
  EXPECT_EQ(grid.Components().local_global.size(), tiles);
  std::mt19937_64 rng(11);
  for (int step = 0; step < 30; ++step) {
    // Close a random open cell: in a maze (a tree of corridors) that
    // usually splits the component it was in.
    Point p;
    do {
      p = {static_cast<int32_t>(rng() % o.width),
           static_cast<int32_t>(rng() % o.height)};
    } while (!grid.passable(p));
    grid = grid.WithCosts({{grid.Index(p), kBlocked}});
    ExpectLabelsMatchFloodFill(grid, "step " + std::to_string(step));
    if (HasFatalFailure()) return;
    // The canonical labels are those of a grid made afresh.
    const Grid fresh = *Grid::Create(o.width, o.height, grid.CostVector());
    ASSERT_TRUE(grid.SameComponentsAs(fresh)) << "step " << step;
  }
  EXPECT_GT(grid.component_count(), 10u);
  EXPECT_GT(grid.Components().cell_labels.size(), 0u);
}

// A split cuts every tile of the maze into pieces (8-bit slots) before the
// merge needs none again: the update lays the labels out afresh instead of
// keeping slots of dead bytes, so the labels stay about a fresh grid's size.
TEST(GridComponentsTest, SplitDoesNotLeaveWideSlotsBehind) {
  MapGenOptions o;
  o.kind = MapKind::kMaze;
  o.width = o.height = 512;
  o.seed = 2;
  const Grid maze = *GenerateMap(o);
  Point p{1, 1};
  while (!maze.passable(p)) ++p.x;
  const Grid split = maze.WithCosts({{maze.Index(p), kBlocked}});
  ASSERT_GT(split.component_count(), 1u);
  const Grid fresh = *Grid::Create(512, 512, split.CostVector());
  ASSERT_TRUE(split.SameComponentsAs(fresh));
  EXPECT_LE(split.ComponentBytes(), 2 * fresh.ComponentBytes() + 80 * 1024)
      << "fresh " << fresh.ComponentBytes();
}

TEST(GridComponentsTest, MatchFloodFillAfterUpdatesAndSaveLoad) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    BuildOptions build;
    build.params.zone_size = 16;
    build.threads = 1;
    absl::StatusOr<World> world = BuildWorld(RandomWorld(seed), build);
    ASSERT_TRUE(world.ok()) << world.status();
    std::mt19937_64 rng(seed);
    for (int batch = 0; batch < 8; ++batch) {
      std::vector<CellChange> changes;
      for (const Grid::CellCost& c : RandomBatch(world->grid(), rng)) {
        changes.push_back({world->grid().ToPoint(c.cell), c.cost});
      }
      absl::StatusOr<World> next = ApplyChanges(*world, changes, {});
      ASSERT_TRUE(next.ok()) << next.status();
      world = std::move(next);
    }
    const std::string context = "seed " + std::to_string(seed);
    ExpectLabelsMatchFloodFill(world->grid(), context + " updated");
    absl::StatusOr<World> loaded = ParseWorld(SerializeWorld(*world));
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    ExpectLabelsMatchFloodFill(loaded->grid(), context + " loaded");
    // And through a mapped file (the costs are views of the mapping).
    const std::string path =
        (std::filesystem::temp_directory_path() / "zonepath_components.zpw")
            .string();
    ASSERT_TRUE(SaveWorldFile(*world, path).ok());
    absl::StatusOr<World> mapped = LoadWorldFile(path);
    ASSERT_TRUE(mapped.ok()) << mapped.status();
    EXPECT_GT(mapped->MappedBytes(), 0u);
    ExpectLabelsMatchFloodFill(mapped->grid(), context + " mapped");
    std::filesystem::remove(path);
  }
}

}  // namespace
}  // namespace zonepath
