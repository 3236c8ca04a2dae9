#include "zonepath/search/node_table.h"

#include <bit>

namespace zonepath {

NodeTable::NodeTable(int32_t width, int32_t height) {
  const uint32_t tiles_x =
      (static_cast<uint32_t>(width) + kTileSide - 1) >> kTileShift;
  const uint32_t tiles_y =
      (static_cast<uint32_t>(height) + kTileSide - 1) >> kTileShift;
  // Sides are at most 2^16 cells, so tile rows and columns take at most 10
  // bits each and an id fits in 32.
  const int x_bits = tiles_x <= 1 ? 0 : std::bit_width(tiles_x - 1);
  row_shift_ = kCellBits + x_bits;
  tile_x_mask_ = (NodeId{1} << x_bits) - 1;
  tiles_.resize(static_cast<size_t>(tiles_y) << x_bits);
}

SearchNode* NodeTable::AllocateTile(size_t tile) {
  tiles_[tile] = std::make_unique<SearchNode[]>(kTileCells);
  ++allocated_tiles_;
  return tiles_[tile].get();
}

void NodeTable::Wrap() {
  for (auto& tile : tiles_) {
    if (tile) {
      for (int i = 0; i < kTileCells; ++i) tile[i].tag = 0;
    }
  }
  stamp_ = 8;
}

}  // namespace zonepath
