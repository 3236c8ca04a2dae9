// DerivedConnections: connection tables (world/connection_tables.h) that a
// planner derives for the levels its world file holds none of, so that
// connecting a query's endpoint there reads one small block instead of
// running a Dijkstra (connector.h).
//
// A world file stores tables from level 3 up (ConnectionTables::
// kFirstLevel): level 2's would add a third of a byte per cell or more to
// every world (~1 byte on rooms: README, "Level-2 connection tables in the
// world file"). On a small world, though, the level-2 connection is the
// largest part of a query's first moves (Cauldron: two level-2 searches,
// ~68 k instructions of the ~250 k to the first 32 smoothed moves), and
// its table is small (docs/measurements_history.md, "Level-2 connection
// tables"). So a planner builds the blocks of the levels the world lacks,
// lowest first, while their total stays within kMaxBytes (16 MB;
// PlannerOptions:: derive_connection_tables turns them off), once per world
// (World::DerivedOnce) and shared by all its planners.
//
// Same layout as the file's tables: zone z of level j is a block of rows x
// cols floats, rows its level-j nodes in id order, cols its level-(j-1)
// nodes in ForEachZoneMemberRange order, +inf where the two do not reach
// each other inside z. Row t holds the costs from t (a Dijkstra on level
// j-1 inside z, from t's level-(j-1) node); costs are taken as symmetric,
// as the file's tables take them.
//
//   std::shared_ptr<const DerivedConnections> derived =
//       DerivedConnections::Build(graph, DerivedConnections::kMaxBytes);
//   absl::Span<const float> block = derived->Block(2, zone);  // may be empty
#ifndef ZONEPATH_RUNTIME_DERIVED_CONNECTIONS_H_
#define ZONEPATH_RUNTIME_DERIVED_CONNECTIONS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/types/span.h"
#include "level_graph.h"
#include "zonepath/world/connection_tables.h"

namespace zonepath::runtime_internal {

class DerivedConnections {
 public:
  // The blocks of every level j >= 2 that the graph's world has no
  // connection table for, lowest level first, while their total stays
  // within max_bytes and the whole build within kMaxWork row x edge steps
  // (a level that does not fit, and every level above it, gets none). Null
  // when no level gets a table.
  // The budget a planner builds with (PlannerOptions::
  // derive_connection_tables).
  static constexpr uint64_t kMaxBytes = uint64_t{16} << 20;
  // Most rows x member edges a build relaxes (one Dijkstra per row, over
  // all levels), as LevelDistances::kMaxWork: no world file, however dense
  // its zones, makes a planner's constructor run long. Cauldron's level 2
  // needs ~1/50 of it.
  static constexpr double kMaxWork = double{1 << 27};

  static std::shared_ptr<const DerivedConnections> Build(
      const LevelGraph& graph, uint64_t max_bytes);

  bool has_level(int j) const {
    return j >= 2 && j <= ConnectionTables::kMaxLevel &&
           !levels_[j].zone_begin.empty();
  }
  // Zone z's block of level j (has_level(j)); empty when the zone has no
  // level-j node.
  absl::Span<const float> Block(int j, uint32_t z) const {
    const Level& l = levels_[j];
    return absl::Span<const float>(l.values.data() + l.zone_begin[z],
                                   l.zone_begin[z + 1] - l.zone_begin[z]);
  }
  size_t MemoryUsage() const;

 private:
  struct Level {
    std::vector<uint64_t> zone_begin;  // zones + 1 offsets into values
    std::vector<float> values;
  };
  std::array<Level, ConnectionTables::kMaxLevel + 1> levels_;
};

// The connection block of level j, zone z a query reads: the world file's
// table where it has one for the level, else the planner's derived one;
// empty when neither has a block for the zone.
struct ConnectionBlocks {
  const ConnectionTables* file = nullptr;
  const DerivedConnections* derived = nullptr;
  absl::Span<const float> Block(int j, uint32_t z) const {
    if (file != nullptr && file->has_level(j)) return file->Block(j, z);
    if (derived != nullptr && derived->has_level(j)) {
      return derived->Block(j, z);
    }
    return {};
  }
};

// One row of a zone's block with its columns: the costs between one
// level-j node t of zone z and each level-(j-1) node inside z.
class ZoneRow {
 public:
  static constexpr uint32_t kNoColumn = 0xffffffffu;
  // Row of level-j node t (which must lie in zone z) in `block` (the zone's
  // block; empty leaves the row empty). False when the block's shape does
  // not fit the zone (a world whose tables and levels disagree).
  bool Set(const LevelGraph& graph, int j, uint32_t z, uint32_t t,
           absl::Span<const float> block);
  bool empty() const { return row_.empty(); }
  void ReserveRanges(size_t ranges) { ranges_.reserve(ranges); }
  // The column of level-(j-1) node v, or kNoColumn outside the zone.
  uint32_t Column(uint32_t v) const {
    for (const Range& r : ranges_) {
      if (v >= r.begin && v < r.end) return r.column + (v - r.begin);
    }
    return kNoColumn;
  }
  float At(uint32_t column) const { return row_[column]; }
  size_t columns() const { return row_.size(); }
  size_t MemoryUsage() const { return ranges_.capacity() * sizeof(Range); }

 private:
  struct Range {
    uint32_t begin, end;  // level-(j-1) ids [begin, end)
    uint32_t column;      // column of `begin`
  };
  std::vector<Range> ranges_;  // merged where ids run on
  absl::Span<const float> row_;
};

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_DERIVED_CONNECTIONS_H_
