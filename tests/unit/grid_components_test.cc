// Component labels (tile-local labels plus a table into global components)
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

// Labels cost (almost) nothing where a tile is one component: an open
// world's labels are the tile records and table, under 0.01 bytes a cell.
TEST(GridComponentsTest, OneComponentTilesStoreNoCellLabels) {
  const Grid open = *Grid::Create(640, 640, std::vector<uint8_t>(640 * 640, 1));
  EXPECT_EQ(open.component_count(), 1u);
  EXPECT_LT(open.ComponentBytes(), 640 * 640 / 100);
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
