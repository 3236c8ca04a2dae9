// OpenCellTiles: the open cells of a grid whose passable cells all cost the
// same, as bits in 64 x 64-cell tiles, with that cost checked cell by cell.
// Bounded searches and walks on a large grid read these instead of the
// grid's costs.
//
// A grid's costs lie row by row, so on a large grid the 64 rows of a zone
// lie a whole row's width apart: on a 32768-wide grid each row of a zone is
// in its own page, and the first read of each waits on memory. Refining a
// level-1 edge reads most of its zone's rows (its search's bits, its
// way's cells, straightening, the cost), which was the largest share of a
// plain query on rooms 32768^2 (README, "Open cell tiles"). A tile here
// is 64 consecutive words, 512 bytes: a zone of 64 cells, or four of 32,
// is one short run of memory.
//
//   std::unique_ptr<const OpenCellTiles> tiles = OpenCellTiles::Of(grid);
//   if (tiles != nullptr && tiles->passable({x, y})) ...;  // grid's answer
//   double step = StepCost(d, tiles->cost(p), tiles->cost(Step(p, d)));
#ifndef ZONEPATH_GRID_OPEN_CELL_TILES_H_
#define ZONEPATH_GRID_OPEN_CELL_TILES_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "zonepath/grid/geometry.h"
#include "zonepath/grid/grid.h"

namespace zonepath {

// Immutable once made: one copy serves every planner of a world, on any
// thread (World::DerivedOnce). Reads answer as the grid does: passable,
// cost, PassableOrFalse, and so CanStep (moves.h) and the walks and
// straightening written for either.
class OpenCellTiles {
 public:
  static constexpr int kShift = 6;
  static constexpr int32_t kSide = int32_t{1} << kShift;  // cells

  // The tiles of `grid`, or null if its passable cells do not all cost
  // grid.min_cost() (read cell by cell: a loaded world's cost counts are
  // not trusted, and cost() stands for every cell's). O(cells); takes
  // cells / 8 bytes, rounded up to whole tiles (128 MB for 32768^2).
  static std::unique_ptr<const OpenCellTiles> Of(const Grid& grid);

  int32_t width() const { return width_; }
  int32_t height() const { return height_; }
  bool InBounds(Point p) const {
    return p.x >= 0 && p.y >= 0 && p.x < width_ && p.y < height_;
  }

  // Cells (tx * 64 + i, y) for i in 0..63: bit i set iff open (0 past the
  // grid's right edge). Requires tx < (width() + 63) / 64, 0 <= y <
  // height().
  uint64_t Word(uint32_t tx, int32_t y) const {
    const uint32_t uy = static_cast<uint32_t>(y);
    return words_[((size_t{uy >> kShift} * tiles_x_ + tx) << kShift) |
                  (uy & (kSide - 1))];
  }
  // The grid's passable(p). Requires InBounds(p).
  bool passable(Point p) const {
    return (Word(static_cast<uint32_t>(p.x) >> kShift, p.y) >>
            (static_cast<uint32_t>(p.x) & (kSide - 1))) &
           1;
  }
  // The grid's cost(p): the one cost of every passable cell, or kBlocked.
  // Requires InBounds(p).
  uint8_t cost(Point p) const { return passable(p) ? cost_ : kBlocked; }
  // The grid's PassableOrFalse(p): any coordinates.
  bool PassableOrFalse(Point p) const { return InBounds(p) && passable(p); }

  size_t MemoryUsage() const {
    return sizeof(*this) + words_.capacity() * sizeof(uint64_t);
  }

 private:
  OpenCellTiles() = default;

  int32_t width_ = 0;
  int32_t height_ = 0;
  uint32_t tiles_x_ = 0;
  uint8_t cost_ = 1;
  std::vector<uint64_t> words_;  // tile by tile, row by row: 64 words each
};

}  // namespace zonepath

#endif  // ZONEPATH_GRID_OPEN_CELL_TILES_H_
