// OpenBits (the jump point search's open cells as bits, lib/search) against
// the cell-by-cell reading it replaces (OpenCells, which whole-grid
// searches keep using and JumpPointsMatchDijkstra checks): the same open cells,
// and the same stop for every straight ray, on random grids, bounds (partly off
// the grid, up to 256 cells a side: several words a row and a column) and
// corridors.
#include "open_bits.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "open_cells.h"
#include "random_grids.h"
#include "zonepath/grid/open_cell_tiles.h"
#include "zonepath/search/grid_astar.h"

namespace zonepath::search_internal {
namespace {

// The four straight rays from open cell p, read by `want` (the reading
// trusted) and by `got`: the same stop (or none), the same steps. Counts
// the rays, those that stop, and those that stop at the goal.
struct RayCounts {
  int rays = 0, stops = 0, goals = 0;
};
template <typename Want, typename Got>
void ExpectSameRays(const Want& want, const Got& got, Point p, Point goal,
                    const std::string& context, RayCounts* counts) {
  for (const auto& [dx, dy] :
       {std::pair{1, 0}, std::pair{-1, 0}, std::pair{0, 1}, std::pair{0, -1}}) {
    uint32_t want_steps = 0, got_steps = 0;
    const bool want_stop = want.JumpStraight(p, dx, dy, goal, &want_steps);
    const bool got_stop = got.JumpStraight(p, dx, dy, goal, &got_steps);
    ASSERT_EQ(got_stop, want_stop)
        << context << " ray from " << p.x << "," << p.y << " direction " << dx
        << "," << dy << " goal " << goal.x << "," << goal.y;
    ++counts->rays;
    if (!want_stop) continue;
    ASSERT_EQ(got_steps, want_steps) << context << " ray from " << p.x << ","
                                     << p.y << " direction " << dx << "," << dy;
    ++counts->stops;
    const Point end{p.x + dx * static_cast<int32_t>(want_steps),
                    p.y + dy * static_cast<int32_t>(want_steps)};
    if (end == goal) ++counts->goals;
  }
}

// A random corridor over `bounds`' rows (from up to 4 rows below its top
// to 2 above its bottom), its x interval wandering, sometimes empty and
// sometimes reaching past the bounds.
RowSpans RandomCorridor(const Rect& bounds, std::mt19937_64& rng) {
  RowSpans corridor;
  corridor.y0 = bounds.y0 + static_cast<int32_t>(rng() % 5);
  int32_t lo = bounds.x0 + static_cast<int32_t>(rng() % bounds.width());
  for (int32_t y = corridor.y0; y < bounds.y1 - 2; ++y) {
    lo += static_cast<int32_t>(rng() % 9) - 4;
    corridor.lo.push_back(lo);
    corridor.hi.push_back(lo + static_cast<int32_t>(rng() % 90) - 5);
  }
  return corridor;
}

TEST(OpenBitsTest, SameCellsAndRaysAsCellByCell) {
  OpenBits bits;  // one scratch for every case, as GridAStar keeps it
  RayCounts counts;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    std::mt19937_64 rng(seed * 131 + 5);
    const int width = 1 + static_cast<int>(rng() % 300);
    const int height = 1 + static_cast<int>(rng() % 300);
    const double blocked = static_cast<double>(rng() % 60) / 100.0;
    const Grid grid = testing::RandomGrid(seed, {width, height, blocked, 1});
    // Bounds of 1..256 cells a side, sometimes reaching off the grid.
    const int32_t bw = 1 + static_cast<int32_t>(rng() % 256);
    const int32_t bh = 1 + static_cast<int32_t>(rng() % 256);
    const int32_t x0 = static_cast<int32_t>(rng() % (width + 20)) - 10;
    const int32_t y0 = static_cast<int32_t>(rng() % (height + 20)) - 10;
    const Rect bounds{x0, y0, x0 + bw, y0 + bh};
    RowSpans corridor;
    const bool with_corridor = seed % 3 == 0;
    if (with_corridor) corridor = RandomCorridor(bounds, rng);
    const RowSpans* c = with_corridor ? &corridor : nullptr;
    const OpenCells cells(grid, bounds, c);
    bits.Fill(grid, bounds, c);
    const std::string context =
        "seed " + std::to_string(seed) + " grid " + std::to_string(width) +
        "x" + std::to_string(height) + " bounds " + std::to_string(x0) + "," +
        std::to_string(y0) + " " + std::to_string(bw) + "x" +
        std::to_string(bh);
    std::vector<Point> open;
    for (int32_t y = y0 - 2; y < y0 + bh + 2; ++y) {
      for (int32_t x = x0 - 2; x < x0 + bw + 2; ++x) {
        ASSERT_EQ(bits(x, y), cells(x, y))
            << context << " cell " << x << "," << y;
        if (cells(x, y)) open.push_back({x, y});
      }
    }
    if (open.empty()) continue;
    for (int q = 0; q < 200; ++q) {
      const Point p = open[rng() % open.size()];
      // A goal anywhere open, or on p's row or column (ahead or behind).
      Point goal = open[rng() % open.size()];
      if (q % 3 == 0) goal.y = p.y;
      if (q % 3 == 1) goal.x = p.x;
      // A search's goal is always open.
      if (!cells(goal.x, goal.y)) goal = open[rng() % open.size()];
      ASSERT_NO_FATAL_FAILURE(
          ExpectSameRays(cells, bits, p, goal, context, &counts));
    }
  }
  // The cases really happened: rays that stop, at the goal among them,
  // and rays that end on a closed cell.
  EXPECT_GT(counts.stops, 10000);
  EXPECT_GT(counts.goals, 1000);
  EXPECT_GT(counts.rays - counts.stops, 10000);
}

// Fill reads a row's span 64, 16 and 8 cells a step, and its last cells
// with one read that ends with them: every start of a span within the
// row's words (corridor starts 0..63 cells into the bounds) and every
// length, on costs of every byte value (0 blocked), must give the cells'
// own answers, and nothing outside the span.
TEST(OpenBitsTest, EverySpanStartAndLengthAsCellByCell) {
  std::mt19937_64 rng(7);
  const int32_t width = 320, height = 3;
  std::vector<uint8_t> costs(width * height);
  for (uint8_t& c : costs) {
    c = rng() % 3 == 0 ? kBlocked : static_cast<uint8_t>(1 + rng() % 255);
  }
  const Grid grid = *Grid::Create(width, height, costs);
  const Rect bounds{0, 0, OpenBits::kMaxSide, height};
  OpenBits bits;
  for (int32_t start = 0; start < 64; ++start) {
    for (int32_t length = 0; start + length <= OpenBits::kMaxSide; ++length) {
      RowSpans corridor;
      corridor.y0 = 0;
      for (int32_t y = 0; y < height; ++y) {
        corridor.lo.push_back(start + y);  // rows start at other bits too
        corridor.hi.push_back(start + y + length - 1);
      }
      bits.Fill(grid, bounds, &corridor);
      for (int32_t y = -1; y <= height; ++y) {
        for (int32_t x = -1; x <= OpenBits::kMaxSide; ++x) {
          const bool in_span =
              y >= 0 && y < height && x >= start + y &&
              x < std::min(start + y + length, OpenBits::kMaxSide);
          const bool want = in_span && grid.passable({x, y});
          ASSERT_EQ(bits(x, y), want) << "span start " << start << " length "
                                      << length << " cell " << x << "," << y;
        }
      }
    }
  }
}

// A window of a whole grid's bits (OpenBitsWindow, what GridAStar reads
// once a planner hands it the grid's bits) must answer as the cells inside
// the window alone: every cell, and every straight ray's stop from every
// kind of cell — beside the window's edges (where the grid goes on, open,
// past them) most of all.
TEST(OpenBitsTest, WindowOfGridBitsAsCellByCell) {
  RayCounts counts;
  int edge_rays = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    std::mt19937_64 rng(seed * 7919 + 3);
    const int width = 1 + static_cast<int>(rng() % 400);
    const int height = 1 + static_cast<int>(rng() % 400);
    const double blocked = static_cast<double>(rng() % 50) / 100.0;
    const Grid grid = testing::RandomGrid(seed, {width, height, blocked, 1});
    const std::shared_ptr<const OpenBits> grid_bits =
        GridAStar::MakeGridOpenBits(grid);
    ASSERT_NE(grid_bits, nullptr) << "seed " << seed;
    for (int w = 0; w < 4; ++w) {
      // Windows inside the grid, 1 cell to all of it a side.
      const int32_t x0 = static_cast<int32_t>(rng() % width);
      const int32_t y0 = static_cast<int32_t>(rng() % height);
      const int32_t x1 = x0 + 1 + static_cast<int32_t>(rng() % (width - x0));
      const int32_t y1 = y0 + 1 + static_cast<int32_t>(rng() % (height - y0));
      const Rect bounds{x0, y0, x1, y1};
      const OpenCells cells(grid, bounds, nullptr);
      const OpenBitsWindow window(*grid_bits, bounds);
      const std::string context =
          "seed " + std::to_string(seed) + " grid " + std::to_string(width) +
          "x" + std::to_string(height) + " window " + std::to_string(x0) + "," +
          std::to_string(y0) + " .. " + std::to_string(x1) + "," +
          std::to_string(y1);
      std::vector<Point> open;
      for (int32_t y = y0 - 2; y < y1 + 2; ++y) {
        for (int32_t x = x0 - 2; x < x1 + 2; ++x) {
          ASSERT_EQ(window(x, y), cells(x, y))
              << context << " cell " << x << "," << y;
          if (cells(x, y)) open.push_back({x, y});
        }
      }
      if (open.empty()) continue;
      for (int q = 0; q < 150; ++q) {
        const Point p = open[rng() % open.size()];
        Point goal = open[rng() % open.size()];
        if (q % 3 == 0) goal.y = p.y;
        if (q % 3 == 1) goal.x = p.x;
        if (!cells(goal.x, goal.y)) goal = open[rng() % open.size()];
        const bool at_edge =
            p.x <= x0 + 1 || p.x >= x1 - 2 || p.y <= y0 + 1 || p.y >= y1 - 2;
        const int rays_before = counts.rays;
        ASSERT_NO_FATAL_FAILURE(
            ExpectSameRays(cells, window, p, goal, context, &counts));
        if (at_edge) edge_rays += counts.rays - rays_before;
      }
    }
  }
  EXPECT_GT(counts.stops, 10000);
  EXPECT_GT(counts.rays - counts.stops, 10000);
  EXPECT_GT(edge_rays, 10000);
}

// The same at the words' edges: grids and windows whose sides and edges
// fall on bits 62..66 and 126..130 of a line (where a wall or the frame
// bit starts a new word), 1-cell windows and rays from the windows' edges
// included, against a Fill of the window itself.
TEST(OpenBitsTest, WindowOfGridBitsAtWordEdgesAsFill) {
  const int32_t sides[] = {1, 2, 3, 63, 64, 65, 66, 127, 128, 129, 130};
  const int32_t edges[] = {0, 1, 2, 61, 62, 63, 64, 65, 125, 126, 127, 128};
  OpenBits fill;
  RayCounts counts;
  uint64_t seed = 0;
  for (const int32_t width : sides) {
    for (const int32_t height : {3, 65, 129}) {
      const Grid grid = testing::RandomGrid(++seed, {width, height, 0.15, 1});
      const std::shared_ptr<const OpenBits> grid_bits =
          GridAStar::MakeGridOpenBits(grid);
      ASSERT_NE(grid_bits, nullptr);
      std::mt19937_64 rng(seed);
      for (const int32_t x0 : edges) {
        if (x0 >= width) continue;
        const int32_t y0 = edges[rng() % std::size(edges)] % height;
        for (const int32_t x1 : {x0 + 1, x0 + 2, x0 + 63, x0 + 64, width}) {
          if (x1 > width || x1 <= x0) continue;
          const int32_t y1 = std::min<int32_t>(
              height, y0 + 1 + static_cast<int32_t>(rng() % 130));
          const Rect bounds{x0, y0, x1, y1};
          fill.Fill(grid, bounds, nullptr);
          const OpenBitsWindow window(*grid_bits, bounds);
          const std::string context =
              "grid " + std::to_string(width) + "x" + std::to_string(height) +
              " window " + std::to_string(x0) + "," + std::to_string(y0) +
              " .. " + std::to_string(x1) + "," + std::to_string(y1);
          for (int32_t y = y0; y < y1; ++y) {
            for (int32_t x = x0; x < x1; ++x) {
              if (!fill(x, y)) continue;
              const Point p{x, y};
              // Goals: none on the line, or an open cell of the window.
              const Point goal = rng() % 2 ? Point{-1, -1} : p;
              ASSERT_NO_FATAL_FAILURE(
                  ExpectSameRays(fill, window, p, goal, context, &counts));
            }
          }
        }
      }
    }
  }
  EXPECT_GT(counts.rays, 100000);
}

// FillFrom (a window's bits copied from the whole grid's, as
// GridAStar::JumpDistances makes them) against Fill of the same bounds:
// the same open cells, frame included, and the same rays along rows and
// columns, at the words' edges and on random bounds partly off the grid.
TEST(OpenBitsTest, FillFromGridBitsIsFill) {
  const int32_t sides[] = {1, 2, 63, 64, 65, 66, 127, 128, 129, 130, 300};
  OpenBits fill, copied;
  RayCounts counts;
  int windows = 0;
  uint64_t seed = 100;
  for (const int32_t width : sides) {
    for (const int32_t height : {1, 3, 65, 129, 260}) {
      const Grid grid = testing::RandomGrid(++seed, {width, height, 0.2, 1});
      const std::shared_ptr<const OpenBits> grid_bits =
          GridAStar::MakeGridOpenBits(grid);
      ASSERT_NE(grid_bits, nullptr);
      std::mt19937_64 rng(seed);
      for (int k = 0; k < 12; ++k) {
        // Sides 1..256 (every other window one at a word's edge), corners
        // from 3 cells off the grid's low edges.
        const int32_t edge_sides[] = {1, 62, 63, 64, 65, 126, 127, 128, 256};
        const auto side = [&] {
          return k % 2 == 0 ? edge_sides[rng() % std::size(edge_sides)]
                            : 1 + static_cast<int32_t>(rng() % 256);
        };
        const int32_t x0 = static_cast<int32_t>(rng() % (width + 3)) - 3;
        const int32_t y0 = static_cast<int32_t>(rng() % (height + 3)) - 3;
        const int32_t w = side(), h = side();
        const Rect bounds{x0, y0, x0 + w, y0 + h};
        fill.Fill(grid, bounds, nullptr);
        copied.FillFrom(*grid_bits, bounds);
        ++windows;
        const std::string context =
            "seed " + std::to_string(seed) + " grid " + std::to_string(width) +
            "x" + std::to_string(height) + " bounds " +
            std::to_string(bounds.x0) + "," + std::to_string(bounds.y0) +
            " .. " + std::to_string(bounds.x1) + "," +
            std::to_string(bounds.y1);
        for (int32_t y = bounds.y0 - 2; y < bounds.y1 + 2; ++y) {
          for (int32_t x = bounds.x0 - 2; x < bounds.x1 + 2; ++x) {
            ASSERT_EQ(copied(x, y), fill(x, y))
                << context << " cell " << x << "," << y;
            if (!fill(x, y)) continue;
            const Point goal = rng() % 2 ? Point{-1, -1} : Point{x, y};
            ASSERT_NO_FATAL_FAILURE(
                ExpectSameRays(fill, copied, {x, y}, goal, context, &counts));
          }
        }
      }
    }
  }
  EXPECT_EQ(windows, 11 * 5 * 12);
  EXPECT_GT(counts.stops, 100000);
}

// 40 random queries on `grid` (open: its open cells), planned by `want`
// and by `got`: bounded windows, and every fourth the whole grid (searched
// cell by cell past kLocalSide). They must find the same outcome, runs and
// cost. With `distances`, also the same jump distances from each query's
// start to 6 cells of a window around it (counting the finite ones).
// Returns how many queries found a path.
int ExpectSamePaths(const Grid& grid, const std::vector<Point>& open,
                    GridAStar& want, GridAStar& got, std::mt19937_64& rng,
                    const std::string& what, int* distances) {
  int found = 0;
  RunLengthPath a, b;
  for (int q = 0; q < 40; ++q) {
    const Point s = open[rng() % open.size()];
    const Point t = open[rng() % open.size()];
    AStarOptions options;
    options.jump_points = true;
    options.prefer_straight = q % 2 == 0;
    if (q % 4 != 3) {  // bounded (a window), else the whole grid
      options.bounds =
          Rect{std::min(s.x, t.x) - static_cast<int32_t>(rng() % 40),
               std::min(s.y, t.y) - static_cast<int32_t>(rng() % 40),
               std::max(s.x, t.x) + 1 + static_cast<int32_t>(rng() % 40),
               std::max(s.y, t.y) + 1 + static_cast<int32_t>(rng() % 40)};
    }
    const std::string context = what + " query " + std::to_string(q) + " " +
                                PointString(s) + " -> " + PointString(t);
    const absl::StatusOr<SearchOutcome> wanted =
        want.FindPath(s, t, options, &a);
    const absl::StatusOr<SearchOutcome> gotten =
        got.FindPath(s, t, options, &b);
    EXPECT_TRUE(wanted.ok()) << context << wanted.status();
    EXPECT_TRUE(gotten.ok()) << context << gotten.status();
    if (!wanted.ok() || !gotten.ok()) return found;
    EXPECT_EQ(*gotten, *wanted) << context;
    if (*wanted == SearchOutcome::kFound && *gotten == *wanted) {
      ++found;
      EXPECT_EQ(b.cost(), a.cost()) << context;
      EXPECT_EQ(b.runs(), a.runs()) << context;
    }
    if (distances == nullptr) continue;
    const Rect window =
        Intersect(Rect{s.x - 30, s.y - 30, s.x + 31, s.y + 31}, grid.bounds());
    std::vector<Point> targets;
    for (int i = 0; i < 6; ++i) {
      targets.push_back(
          {window.x0 + static_cast<int32_t>(rng() % window.width()),
           window.y0 + static_cast<int32_t>(rng() % window.height())});
    }
    std::vector<double> want_d(targets.size()), got_d(targets.size());
    const absl::Status w =
        want.JumpDistances(s, targets, window, absl::MakeSpan(want_d));
    const absl::Status g =
        got.JumpDistances(s, targets, window, absl::MakeSpan(got_d));
    EXPECT_TRUE(w.ok()) << context << w;
    EXPECT_TRUE(g.ok()) << context << g;
    for (size_t i = 0; i < targets.size(); ++i) {
      EXPECT_EQ(got_d[i], want_d[i]) << context << " target " << i;
      if (want_d[i] < std::numeric_limits<double>::infinity()) ++*distances;
    }
  }
  return found;
}

// The open cells of `grid`, row by row.
std::vector<Point> OpenCellsOf(const Grid& grid) {
  std::vector<Point> open;
  for (int32_t y = 0; y < grid.height(); ++y) {
    for (int32_t x = 0; x < grid.width(); ++x) {
      if (grid.passable({x, y})) open.push_back({x, y});
    }
  }
  return open;
}

// GridAStar with the grid's bits finds the same paths as with its own
// windows' bits (and, past kLocalSide, cell by cell): same runs, same cost.
TEST(OpenBitsTest, GridBitsGiveTheSamePaths) {
  int found = 0;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    std::mt19937_64 rng(seed * 104729 + 11);
    const int width = 20 + static_cast<int>(rng() % 400);
    const int height = 20 + static_cast<int>(rng() % 400);
    const double blocked = static_cast<double>(rng() % 40) / 100.0;
    const Grid grid = testing::RandomGrid(seed, {width, height, blocked, 1});
    GridAStar plain(grid), with_bits(grid);
    with_bits.UseGridOpenBits(GridAStar::MakeGridOpenBits(grid));
    const std::vector<Point> open = OpenCellsOf(grid);
    if (open.empty()) continue;
    found += ExpectSamePaths(grid, open, plain, with_bits, rng,
                             "seed " + std::to_string(seed), nullptr);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(found, 1000);
}

// FillFromTiles (a window's bits from the grid's open cell tiles, as
// GridAStar fills them on a large grid of one cost) against Fill of the
// same bounds and corridor: the same open cells, frame included, and the
// same rays, on bounds at the tiles' edges and at random, partly off the
// grid.
TEST(OpenBitsTest, FillFromTilesIsFill) {
  const int32_t sides[] = {1, 2, 63, 64, 65, 66, 127, 128, 129, 300};
  OpenBits fill, from_tiles;
  RayCounts counts;
  int corridors = 0;
  uint64_t seed = 500;
  for (const int32_t width : sides) {
    for (const int32_t height : {1, 3, 64, 65, 129, 260}) {
      ++seed;
      const Grid grid = testing::OneCostGrid(
          testing::RandomGrid(seed, {width, height, 0.2, 1}),
          static_cast<uint8_t>(1 + seed % 4));
      const std::unique_ptr<const OpenCellTiles> tiles =
          OpenCellTiles::Of(grid);
      ASSERT_NE(tiles, nullptr);
      std::mt19937_64 rng(seed);
      for (int k = 0; k < 12; ++k) {
        const int32_t edge_sides[] = {1, 62, 63, 64, 65, 126, 127, 128, 256};
        const auto side = [&] {
          return k % 2 == 0 ? edge_sides[rng() % std::size(edge_sides)]
                            : 1 + static_cast<int32_t>(rng() % 256);
        };
        // Corners on a tile's edge (0, 63, 64, 65) or anywhere from 3 cells
        // off the grid's low edges.
        const int32_t tile_edges[] = {0, 63, 64, 65};
        const int32_t x0 = k % 3 == 0
                               ? tile_edges[rng() % std::size(tile_edges)]
                               : static_cast<int32_t>(rng() % (width + 3)) - 3;
        const int32_t y0 = k % 3 == 1
                               ? tile_edges[rng() % std::size(tile_edges)]
                               : static_cast<int32_t>(rng() % (height + 3)) - 3;
        const int32_t w = side(), h = side();
        const Rect bounds{x0, y0, x0 + w, y0 + h};
        RowSpans corridor;
        const bool with_corridor = k % 4 == 3;
        if (with_corridor) {
          corridor = RandomCorridor(bounds, rng);
          ++corridors;
        }
        const RowSpans* c = with_corridor ? &corridor : nullptr;
        fill.Fill(grid, bounds, c);
        from_tiles.FillFromTiles(*tiles, bounds, c);
        const std::string context =
            "seed " + std::to_string(seed) + " grid " + std::to_string(width) +
            "x" + std::to_string(height) + " bounds " +
            std::to_string(bounds.x0) + "," + std::to_string(bounds.y0) +
            " .. " + std::to_string(bounds.x1) + "," +
            std::to_string(bounds.y1) + (with_corridor ? " corridor" : "");
        for (int32_t y = bounds.y0 - 2; y < bounds.y1 + 2; ++y) {
          for (int32_t x = bounds.x0 - 2; x < bounds.x1 + 2; ++x) {
            ASSERT_EQ(from_tiles(x, y), fill(x, y))
                << context << " cell " << x << "," << y;
            if (!fill(x, y)) continue;
            const Point goal = rng() % 2 ? Point{-1, -1} : Point{x, y};
            ASSERT_NO_FATAL_FAILURE(ExpectSameRays(fill, from_tiles, {x, y},
                                                   goal, context, &counts));
          }
        }
      }
    }
  }
  EXPECT_GT(corridors, 100);
  EXPECT_GT(counts.stops, 100000);
}

// GridAStar reading the grid's open cell tiles (UseCellTiles, as a planner
// on a large grid of one cost makes it) finds the same paths, costs and
// jump distances as reading the grid's costs: windows' bits, straightening
// and the path's cost all come from the tiles.
TEST(OpenBitsTest, CellTilesGiveTheSamePaths) {
  int found = 0, distances = 0;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    std::mt19937_64 rng(seed * 7177 + 3);
    const int width = 20 + static_cast<int>(rng() % 400);
    const int height = 20 + static_cast<int>(rng() % 400);
    const double blocked = static_cast<double>(rng() % 40) / 100.0;
    const Grid grid = testing::OneCostGrid(
        testing::RandomGrid(seed, {width, height, blocked, 1}),
        static_cast<uint8_t>(1 + seed % 3));
    GridAStar plain(grid), with_tiles(grid);
    with_tiles.UseCellTiles(OpenCellTiles::Of(grid));
    ASSERT_NE(with_tiles.cell_tiles(), nullptr);
    const std::vector<Point> open = OpenCellsOf(grid);
    if (open.empty()) continue;
    found += ExpectSamePaths(grid, open, plain, with_tiles, rng,
                             "seed " + std::to_string(seed), &distances);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(found, 1000);
  EXPECT_GT(distances, 3000);
}

// RunOpen and DiagonalReach (string pulling's tests of a run) against
// stepping cell by cell (CanStep): the same answer for every direction and
// length from random cells, at the grid's edges and across word edges.
TEST(OpenBitsTest, RunsOpenAsStepByStep) {
  int legal = 0, runs = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    std::mt19937_64 rng(seed * 31 + 7);
    const int width = 1 + static_cast<int>(rng() % 200);
    const int height = 1 + static_cast<int>(rng() % 200);
    const double blocked = static_cast<double>(rng() % 20) / 100.0;
    const Grid grid = testing::RandomGrid(seed, {width, height, blocked, 1});
    const OpenBits bits = OpenBits::OfWholeGrid(grid);
    for (int k = 0; k < 200; ++k) {
      const Point p = {static_cast<int32_t>(rng() % width),
                       static_cast<int32_t>(rng() % height)};
      if (!grid.passable(p)) continue;
      const Direction d = static_cast<Direction>(rng() % 8);
      // Mostly short runs (long ones are rarely legal), some past 64.
      const uint32_t steps =
          static_cast<uint32_t>(k % 4 == 0 ? rng() % 130 : rng() % 24);
      uint32_t can = 0;
      for (Point q = p;
           can < steps && CanStep(grid, q, d, Connectivity::kEight);
           q = Step(q, d)) {
        ++can;
      }
      const std::string context =
          "seed " + std::to_string(seed) + " from " + PointString(p) + " " +
          std::string(DirectionName(d)) + " x" + std::to_string(steps);
      ASSERT_EQ(bits.RunOpen(p, Dx(d), Dy(d), steps), can == steps) << context;
      if (IsDiagonal(d)) {
        ASSERT_EQ(bits.DiagonalReach(p, Dx(d), Dy(d), steps), can) << context;
      }
      ++runs;
      if (can == steps) ++legal;
    }
  }
  EXPECT_GT(runs, 20000);
  EXPECT_GT(legal, runs / 10);
  EXPECT_LT(legal, runs - runs / 10);
}

// A whole grid's bits read diagonal runs by their 2 x 2 blocks, line by
// line along the diagonals (64 blocks a word): every diagonal run from
// every open cell, long ones on nearly open grids (past several words),
// non-square grids both ways, as step by step and as bits without the
// blocks (a Fill of the whole grid); from a closed cell, which the blocks
// do not answer for, as step by step too.
TEST(OpenBitsTest, DiagonalRunsByBlocksAsStepByStep) {
  int64_t runs = 0, long_reaches = 0, closed_from = 0;
  int with_blocks = 0, without = 0;
  for (uint64_t seed = 0; seed < 48; ++seed) {
    std::mt19937_64 rng(seed * 17 + 3);
    // Every fourth grid long and thin (no blocks past 64 KB), across.
    const bool thin = seed % 4 == 3;
    const int width = thin ? 1 + static_cast<int>(rng() % 6)
                           : 1 + static_cast<int>(rng() % 300);
    const int height = thin ? 20000 + static_cast<int>(rng() % 20000)
                            : 1 + static_cast<int>(rng() % 300);
    const double blocked = static_cast<double>(rng() % 4) / 100.0;
    const Grid grid = testing::RandomGrid(seed, {width, height, blocked, 1});
    const OpenBits whole = OpenBits::OfWholeGrid(grid);
    (whole.HasDiagonalBlocks() ? with_blocks : without)++;
    EXPECT_EQ(whole.HasDiagonalBlocks(), !thin) << "seed " << seed;
    OpenBits filled;
    filled.Fill(grid, grid.bounds(), nullptr);
    ASSERT_FALSE(filled.HasDiagonalBlocks());
    for (int k = 0; k < 400; ++k) {
      const Point p = {static_cast<int32_t>(rng() % width),
                       static_cast<int32_t>(rng() % height)};
      for (const Direction d :
           {Direction::kNE, Direction::kSE, Direction::kSW, Direction::kNW}) {
        const uint32_t steps = static_cast<uint32_t>(rng() % 320);
        // Step by step, p itself not read (as DiagonalReach's contract).
        uint32_t can = 0;
        for (Point q = p; can < steps; q = Step(q, d)) {
          const Point r = Step(q, d);
          if (!grid.PassableOrFalse(r) || !grid.PassableOrFalse({r.x, q.y}) ||
              !grid.PassableOrFalse({q.x, r.y})) {
            break;
          }
          ++can;
        }
        const std::string context =
            "seed " + std::to_string(seed) + " grid " + std::to_string(width) +
            "x" + std::to_string(height) + " from " + PointString(p) + " " +
            std::string(DirectionName(d)) + " x" + std::to_string(steps);
        ASSERT_EQ(whole.DiagonalReach(p, Dx(d), Dy(d), steps), can) << context;
        ASSERT_EQ(filled.DiagonalReach(p, Dx(d), Dy(d), steps), can) << context;
        ASSERT_EQ(whole.RunOpen(p, Dx(d), Dy(d), steps), can == steps)
            << context;
        ++runs;
        if (can > 64) ++long_reaches;
        if (!grid.passable(p)) ++closed_from;
      }
    }
  }
  EXPECT_GT(runs, 50000);
  EXPECT_GT(long_reaches, 1000);
  EXPECT_GT(closed_from, 100);
  EXPECT_EQ(with_blocks, 36);
  EXPECT_EQ(without, 12);
}

}  // namespace
}  // namespace zonepath::search_internal
