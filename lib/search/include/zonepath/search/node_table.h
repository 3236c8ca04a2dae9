// NodeTable: per-cell search state for a whole grid, reset in O(1).
//
// State lives in 64 x 64-cell tiles allocated the first time a search touches
// them and kept afterwards, so memory follows the area searched (a search
// restricted to one zone of a 32768^2 world touches a few tiles, not 16 GiB)
// and a warmed-up table never allocates. Each node carries the generation
// stamp of the search that last wrote it; NewSearch() bumps the stamp, which
// invalidates every node at once (warthog's per-node search number).
//
//   NodeTable table(grid.width(), grid.height());
//   table.NewSearch();
//   SearchNode& n = table.At(p);
//   if (!table.Fresh(n)) table.Init(n);   // first touch in this search
#ifndef ZONEPATH_SEARCH_NODE_TABLE_H_
#define ZONEPATH_SEARCH_NODE_TABLE_H_

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "zonepath/grid/geometry.h"

namespace zonepath {

struct SearchNode {
  double g = 0;        // best known cost from the start
  uint32_t stamp = 0;  // search generation that wrote this node
  uint8_t parent = 0;  // Direction of the step that reached this node
  uint8_t closed = 0;  // 1 once expanded
};

class NodeTable {
 public:
  static constexpr int kTileShift = 6;
  static constexpr int kTileSide = 1 << kTileShift;
  static constexpr int kTileCells = kTileSide * kTileSide;

  NodeTable(int32_t width, int32_t height)
      : tiles_x_((width + kTileSide - 1) >> kTileShift),
        tiles_(static_cast<size_t>(tiles_x_) *
               ((height + kTileSide - 1) >> kTileShift)) {}

  // Starts a new search: every node becomes stale.
  void NewSearch() {
    if (++stamp_ == 0) {  // wrapped after 2^32 searches: clear for real
      for (auto& tile : tiles_) {
        if (tile) {
          for (int i = 0; i < kTileCells; ++i) tile[i].stamp = 0;
        }
      }
      stamp_ = 1;
    }
  }

  // Node of cell p (which must be inside the grid).
  SearchNode& At(Point p) {
    std::unique_ptr<SearchNode[]>& tile =
        tiles_[static_cast<size_t>(p.y >> kTileShift) * tiles_x_ +
               (p.x >> kTileShift)];
    if (!tile) {
      tile = std::make_unique<SearchNode[]>(kTileCells);
      ++allocated_tiles_;
    }
    return tile[((p.y & (kTileSide - 1)) << kTileShift) |
                (p.x & (kTileSide - 1))];
  }
  // Null if the tile was never touched: for read-only inspection.
  const SearchNode* Find(Point p) const {
    const auto& tile =
        tiles_[static_cast<size_t>(p.y >> kTileShift) * tiles_x_ +
               (p.x >> kTileShift)];
    if (!tile) return nullptr;
    return &tile[((p.y & (kTileSide - 1)) << kTileShift) |
                 (p.x & (kTileSide - 1))];
  }

  // True if the node was written by the current search.
  bool Fresh(const SearchNode& n) const { return n.stamp == stamp_; }
  void Init(SearchNode& n) const {
    n.g = std::numeric_limits<double>::infinity();
    n.stamp = stamp_;
    n.closed = 0;
  }

  size_t MemoryUsage() const {
    return sizeof(*this) + tiles_.capacity() * sizeof(tiles_[0]) +
           allocated_tiles_ * kTileCells * sizeof(SearchNode);
  }

 private:
  int32_t tiles_x_;
  std::vector<std::unique_ptr<SearchNode[]>> tiles_;
  size_t allocated_tiles_ = 0;
  uint32_t stamp_ = 0;
};

}  // namespace zonepath

#endif  // ZONEPATH_SEARCH_NODE_TABLE_H_
