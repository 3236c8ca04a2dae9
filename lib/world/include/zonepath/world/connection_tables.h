// ConnectionTables: precomputed costs that connect a query's endpoint to the
// upper levels without a search (runtime/connector.h).
//
// Connecting an endpoint to level j means finding, for each level-j node of
// its level-j zone Z, the cheapest way from the endpoint inside Z. With the
// endpoint's level-(j-1) links known, that is
//   link_j(t) = min over links u: link_{j-1}(u) + d_Z(t, u)
// where d_Z is the cost between level-j node t and level-(j-1) node u
// staying inside Z on level j-1 (costs are symmetric). Without a table the
// connector finds d_Z by a Dijkstra over Z's few hundred level-(j-1) nodes,
// whose edges are scattered through the world's memory: on a 16384² world
// most of the time to a query's first moves (README, "Connection tables").
// The table holds d_Z for every zone of the levels j >= kFirstLevel, so a
// connection reads one small block instead.
//
// Layout of level j, zone z (a block of rows x cols floats, row-major):
//   rows: z's level-j nodes in id order (zone_node_begin[z] ...);
//   cols: z's members, the level-(j-1) nodes inside z: the level-(j-1)
//         zones inside z row by row, each zone's nodes in id order;
//   +inf where the two do not reach each other inside z.
// A zone whose block would exceed kBytesPerCell has none (empty).
// Only zone-local order matters, so the tables of a world made by
// ApplyChanges (whose rebuilt zones have new ids, in the same order) keep
// their meaning; ApplyChanges recomputes the zones it touched.
//
//   const ConnectionTables* tables = world.connection_tables();
//   if (tables != nullptr && tables->has_level(3)) {
//     absl::Span<const float> block = tables->Block(3, zone);
//     float d = block[row * cols + col];   // cols = block.size() / rows
//   }
#ifndef ZONEPATH_WORLD_CONNECTION_TABLES_H_
#define ZONEPATH_WORLD_CONNECTION_TABLES_H_

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "zonepath/world/shared_abstraction.h"

namespace zonepath {

class ConnectionTables {
 public:
  // Levels below this connect by search (level 2's table would hold ~26
  // floats per level-1 node: a third of the grid's size, for ~30 µs).
  static constexpr int kFirstLevel = 3;
  static constexpr int kMaxLevel = 8;

  // A zone's block is kept when it takes at most this many bytes per cell
  // of the zone; larger zones (mazes: many nodes in a zone) have an empty
  // block and connect by search, so tables add at most this much per cell
  // and level (measured: README, "Connection tables").
  static constexpr double kBytesPerCell = 0.5;
  // The values zone `rect` of a level holds with rows x cols: rows x cols
  // within the budget, else 0 (no block).
  static uint64_t BlockSize(uint64_t rows, uint64_t cols, const Rect& rect) {
    const double cells = static_cast<double>(rect.x1 - rect.x0) *
                         static_cast<double>(rect.y1 - rect.y0);
    const double bytes = static_cast<double>(rows * cols) * sizeof(float);
    return bytes <= kBytesPerCell * cells ? rows * cols : 0;
  }

  // One level in the file's (concatenated) form: zone_begin has zones + 1
  // offsets into values.
  struct LevelData {
    absl::Span<const uint64_t> zone_begin;
    absl::Span<const float> values;
  };
  using Parts = std::array<LevelData, kMaxLevel + 1>;

  // Tables over `parts[j]` for the levels that have one (empty spans
  // elsewhere); `keeper` keeps the memory the spans view alive (owned
  // vectors, or a mapped file: `mapped`). The offsets must be checked first
  // (Validate; the builder's are right by construction).
  ConnectionTables(const Parts& parts, std::shared_ptr<const void> keeper,
                   bool mapped);

  // Checks one level's arrays against the abstraction they serve (a world
  // of width x height): offsets start at 0, rise by BlockSize of each zone
  // and end at the value count; every value is +inf or a finite cost >= 0.
  // InvalidArgument naming the level, zone or value otherwise.
  static absl::Status Validate(const SharedAbstraction& a, int32_t width,
                               int32_t height, int j, const LevelData& data);

  bool has_level(int j) const {
    return j >= kFirstLevel && j <= kMaxLevel && !levels_[j].empty();
  }
  // Zone z's block of level j (has_level(j)); empty when the zone has none
  // (over budget, or no nodes).
  absl::Span<const float> Block(int j, uint32_t z) const {
    const ZoneBlock& b = levels_[j][z];
    return absl::Span<const float>(b.data.get(), b.size);
  }
  uint32_t zone_count(int j) const {
    return static_cast<uint32_t>(levels_[j].size());
  }

  // A copy whose zones `dirty[j]` (level j's zone ids) get the blocks
  // `fill(j, z, out)` writes (out holds the new abstraction's rows x cols
  // of that zone, `sizes(j, z)` floats); the other zones share this one's
  // blocks. How ApplyChanges keeps the tables of the zones it did not
  // touch: O(zones of levels >= 3), plus the dirty zones' blocks.
  std::shared_ptr<const ConnectionTables> WithZones(
      const std::array<std::vector<uint32_t>, kMaxLevel + 1>& dirty,
      const std::function<uint64_t(int j, uint32_t z)>& sizes,
      const std::function<void(int j, uint32_t z, float* out)>& fill) const;

  // Bytes of the blocks this version reads (shared ones included).
  size_t MemoryUsage() const;
  // The part of MemoryUsage viewing a mapped world file.
  size_t MappedBytes() const;
  // The part this version computed or copied itself (WithZones' new
  // blocks; every block of a built table or one loaded by copying).
  size_t OwnedBytes() const;

 private:
  ConnectionTables() = default;
  struct ZoneBlock {
    std::shared_ptr<const float> data;  // aliases its buffer's owner
    uint64_t size = 0;
    bool mapped = false;  // views a mapped file
    bool owned = false;   // made by this version
  };
  // Bytes of the blocks whose `flag` is set.
  size_t BlockBytes(bool ZoneBlock::*flag) const;

  std::array<std::vector<ZoneBlock>, kMaxLevel + 1> levels_;
};

}  // namespace zonepath

#endif  // ZONEPATH_WORLD_CONNECTION_TABLES_H_
