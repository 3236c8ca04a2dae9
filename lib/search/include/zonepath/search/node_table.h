// NodeTable: per-cell search state for a whole grid, reset in O(1).
//
// State lives in 64 x 64-cell tiles allocated the first time a search touches
// them and kept afterwards, so memory follows the area searched (a search
// restricted to one zone of a 32768^2 world touches a few tiles, not 16 GiB)
// and a warmed-up table never allocates. Each node carries the generation
// stamp of the search that last wrote it; NewSearch() bumps the stamp, which
// invalidates every node at once (warthog's per-node search number).
//
// Nodes are named by a 32-bit NodeId: tile row, tile column and the cell's
// place in its tile, as bit fields, so that the id of a neighbour inside the
// same tile is the id plus a constant and an id turns back into a point with
// shifts and masks (no division).
//
//   NodeTable table(grid.width(), grid.height());
//   table.NewSearch(kUnreached);
//   const NodeId id = table.Id(p);
//   SearchNode& n = table.Touch(id);   // allocated and fresh
#ifndef ZONEPATH_SEARCH_NODE_TABLE_H_
#define ZONEPATH_SEARCH_NODE_TABLE_H_

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "zonepath/grid/geometry.h"

namespace zonepath {

using NodeId = uint32_t;

// 16 bytes: four nodes per cache line.
struct SearchNode {
  // Values of heap_index that are not positions in the open list.
  static constexpr uint32_t kClosed = 0xFFFFFFFFu;    // expanded
  static constexpr uint32_t kUnqueued = 0xFFFFFFFEu;  // fresh, not queued

  // Best known cost from the start, in the searcher's representation (a
  // double's bits, or GridAStar's exact pair).
  uint64_t g = 0;
  uint32_t tag = 0;                 // search stamp << 3 | parent direction
  uint32_t heap_index = kUnqueued;  // place in the open list, or the above

  int parent() const { return static_cast<int>(tag & 7); }
  void set_parent(int d) { tag = (tag & ~7u) | static_cast<uint32_t>(d); }
  bool closed() const { return heap_index == kClosed; }
};

class NodeTable {
 public:
  static constexpr int kTileShift = 6;
  static constexpr int kTileSide = 1 << kTileShift;
  static constexpr int kTileCells = kTileSide * kTileSide;
  static constexpr int kCellBits = 2 * kTileShift;
  static constexpr NodeId kCellMask = kTileCells - 1;

  NodeTable(int32_t width, int32_t height);

  // Starts a new search: every node becomes stale, and nodes it touches
  // start with g = `unreached` (the representation's infinity).
  void NewSearch(uint64_t unreached) {
    unreached_ = unreached;
    stamp_ += 8;
    if (stamp_ == 0) Wrap();  // after 2^29 searches: clear for real
  }

  NodeId Id(Point p) const {
    return (static_cast<NodeId>(p.y >> kTileShift) << row_shift_) |
           (static_cast<NodeId>(p.x >> kTileShift) << kCellBits) |
           (static_cast<NodeId>(p.y & (kTileSide - 1)) << kTileShift) |
           static_cast<NodeId>(p.x & (kTileSide - 1));
  }
  Point PointOf(NodeId id) const {
    const int32_t tx = static_cast<int32_t>((id >> kCellBits) & tile_x_mask_);
    const int32_t ty = static_cast<int32_t>(id >> row_shift_);
    return {(tx << kTileShift) | static_cast<int32_t>(id & (kTileSide - 1)),
            (ty << kTileShift) |
                static_cast<int32_t>((id >> kTileShift) & (kTileSide - 1))};
  }

  // Node `id`, allocating its tile if needed and initialising it (g =
  // unreached, unqueued) if an earlier search wrote it.
  SearchNode& Touch(NodeId id) {
    SearchNode* tile = tiles_[id >> kCellBits].get();
    if (tile == nullptr) tile = AllocateTile(id >> kCellBits);
    SearchNode& n = tile[id & kCellMask];
    if ((n.tag & ~7u) != stamp_) Init(n);
    return n;
  }
  // Node `id` of a tile already touched in this search, as it is.
  SearchNode& Node(NodeId id) {
    return tiles_[id >> kCellBits][id & kCellMask];
  }
  // First node of the tile holding `id` (allocated on first touch); with
  // Fresh/Init, for callers that address the neighbours of a cell inside
  // one tile directly.
  SearchNode* Tile(NodeId id) {
    SearchNode* tile = tiles_[id >> kCellBits].get();
    return tile != nullptr ? tile : AllocateTile(id >> kCellBits);
  }
  // Null if the tile was never touched: for read-only inspection.
  const SearchNode* Find(Point p) const {
    const NodeId id = Id(p);
    const SearchNode* tile = tiles_[id >> kCellBits].get();
    return tile != nullptr ? &tile[id & kCellMask] : nullptr;
  }

  // True if the node was written by the current search.
  bool Fresh(const SearchNode& n) const { return (n.tag & ~7u) == stamp_; }
  void Init(SearchNode& n) const {
    n.g = unreached_;
    n.tag = stamp_;
    n.heap_index = SearchNode::kUnqueued;
  }

  size_t MemoryUsage() const {
    return sizeof(*this) + tiles_.capacity() * sizeof(tiles_[0]) +
           allocated_tiles_ * kTileCells * sizeof(SearchNode);
  }

 private:
  SearchNode* AllocateTile(size_t tile);
  void Wrap();

  int row_shift_;       // kCellBits + bits of a tile column number
  NodeId tile_x_mask_;  // tile column mask
  // Tile (tx, ty) is tiles_[ty << (row_shift_ - kCellBits) | tx].
  std::vector<std::unique_ptr<SearchNode[]>> tiles_;
  size_t allocated_tiles_ = 0;
  uint32_t stamp_ = 0;  // multiple of 8: the tag's stamp bits
  uint64_t unreached_ = 0;
};

}  // namespace zonepath

#endif  // ZONEPATH_SEARCH_NODE_TABLE_H_
