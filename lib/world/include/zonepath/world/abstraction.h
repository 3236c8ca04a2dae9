// Abstraction: the multi-level abstract graph of a world, in flat immutable
// arrays (CSR) that serialise as-is and are shared read-only by all runtime
// threads. Built offline by zonepath::offline, loaded by zonepath::world.
//
// Level 1 cuts the grid into square zones of side `zone_size`; level k groups
// `group` x `group` zones of level k-1. Beacons are cells on zone borders
// (HPA* transition points); a beacon belongs to every level up to the highest
// one whose zone border its crossing edge crosses. Each level is a graph over
// its own nodes (a subset of the beacons):
//   - inter-zone edges: one step across a zone border, exact step cost;
//   - intra-zone edges: shortest cost between two nodes of one zone, staying
//     inside the zone (on the grid for level 1, on level k-1 above that).
//
//   const AbstractLevel& level = abstraction.levels[0];
//   for (uint32_t e = level.edge_begin[n]; e < level.edge_begin[n + 1]; ++e)
//     visit(level.edges[e].target, level.edges[e].cost);
#ifndef ZONEPATH_WORLD_ABSTRACTION_H_
#define ZONEPATH_WORLD_ABSTRACTION_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "zonepath/base/strong_id.h"
#include "zonepath/grid/geometry.h"
#include "zonepath/grid/moves.h"
#include "zonepath/grid/path.h"
#include "zonepath/grid/zone_layout.h"

namespace zonepath {

struct BeaconTag {};
using BeaconId = StrongId<BeaconTag, uint32_t>;

// Parameters the abstraction was built with (stored in the world file).
struct BuildParams {
  // Level-1 zone side in cells, 4..1024; 0 = automatic (AutoZoneSize)
  // when building.
  int32_t zone_size = 0;
  // Abstract levels, 1..8; 0 = automatic (AutoLevelCount) when building.
  int32_t levels = 0;
  int32_t group = 4;               // level-k zone = group x group level k-1
  int32_t entrance_threshold = 6;  // entrances this long get 2 beacon pairs
  // 0, or MinBeaconSpacing(zone_size)..1024: an entrance of at least
  // entrance_threshold cells also gets beacon pairs between its two ends,
  // evenly spread, so neighbouring pairs are at most this many cells apart
  // (more beacons: paths closer to optimal, a larger world; README
  // "Beacon spacing").
  int32_t beacon_spacing = 0;
  Connectivity connectivity = Connectivity::kEight;
  bool cache_paths = false;  // keep level-1 intra-zone cell paths
};

// The smallest beacon spacing a zone side allows: max(2, zone_size / 8), so
// a border side holds at most ~9 pairs per entrance, no more than the
// zone_size / 2 entrances an alternating border already may (the world's
// size stays bounded by what spacing 0 allows in the worst case).
inline int32_t MinBeaconSpacing(int32_t zone_size) {
  return zone_size / 8 > 2 ? zone_size / 8 : 2;
}

// The ranges of BuildParams' fields that every world lies in: BuildWorld
// accepts only these (ValidateBuildParams) and every loader refuses
// anything else, all through CheckParamRanges, so they cannot disagree.
inline constexpr int32_t kMinZoneSize = 4, kMaxZoneSize = 1024;
inline constexpr int32_t kMaxLevelCount = 8;
inline constexpr int32_t kMinGroup = 2, kMaxGroup = 64;
inline constexpr int32_t kMinEntranceThreshold = 2;
inline constexpr int32_t kMaxEntranceThreshold = 1024;
inline constexpr int32_t kMaxBeaconSpacing = 1024;

// OK if zone_size (0 too with `automatic`), levels (1..kMaxLevelCount; 0
// too with `automatic`), group, entrance_threshold and beacon_spacing (0,
// or MinBeaconSpacing(zone_size)..kMaxBeaconSpacing; with an automatic zone
// size, the smallest zone's minimum, checked again once the size is known)
// lie in their ranges; else InvalidArgument naming the first field that
// does not, e.g. "zone_size 3 not in 4..1024".
absl::Status CheckParamRanges(const BuildParams& p, bool automatic = false);

// The level-1 zone side a build uses when BuildParams::zone_size is 0:
// 32 cells while the world's longer side is at most kSmallWorldSide (4096),
// 64 above. On larger worlds, zones of 64 make the world 17-28 %
// smaller and long queries 1.2-2.1x faster (generated rooms and
// terrain and an upscaled city at 8192^2 and 16384^2), at about the same
// path quality; on 1024^2 maps they would delay the first moves ~3x
// (README, "Zone size by world size").
inline constexpr int32_t kSmallWorldSide = 4096;
inline constexpr int32_t kSmallWorldZoneSize = 32, kLargeWorldZoneSize = 64;
int32_t AutoZoneSize(int32_t width, int32_t height);

// `p` with an automatic zone size and level count (0) resolved for a world
// of width x height cells; other fields as given.
BuildParams ResolveBuildParams(const BuildParams& p, int32_t width,
                               int32_t height);

// The number of levels a build uses when BuildParams::levels is 0: add
// levels while the next level's zones are at most a quarter of the world's
// longer side, so the top level has between 4 x 4 and 16 x 16 zones (with
// group 4): 1024^2 -> 2 levels, 4096^2 -> 3, 16384^2 -> 4, 32768^2 and
// 65536^2 -> 5 with zones of 32 (with the automatic zones of 64: 8192^2 ->
// 3, 16384^2 and 32768^2 -> 4). Fewer for tiny worlds, at least 1, at most
// 8. params.zone_size must be resolved (ResolveBuildParams resolves both).
int32_t AutoLevelCount(const BuildParams& params, int32_t width,
                       int32_t height);

// A beacon's cell in 4 bytes, as runtime worlds and the world file (since
// version 4) hold beacons: coordinates fit 16 bits because a grid side is
// at most 65536 cells. Converts to and from Point implicitly.
struct BeaconCell {
  uint16_t x = 0;
  uint16_t y = 0;
  BeaconCell() = default;
  // Requires 0 <= p.x, p.y < 65536 (any cell of a grid).
  BeaconCell(Point p)  // NOLINT(google-explicit-constructor)
      : x(static_cast<uint16_t>(p.x)), y(static_cast<uint16_t>(p.y)) {}
  operator Point() const {  // NOLINT(google-explicit-constructor)
    return {x, y};
  }
};
static_assert(sizeof(BeaconCell) == 4);

// 8 bytes: edges dominate the abstraction's size. A float cost is exact to
// ~1e-7 relative, far below what matters for choosing a route; the cost a
// caller sees is always summed from the refined cell path.
struct AbstractEdge {
  uint32_t target : 31;     // node index in the same level (< 2^31)
  uint32_t inter_zone : 1;  // 1 for a border-crossing step
  float cost;
};

// Where a level's zones are: level `index` (0 = level 1) of a width x height
// grid cut into zones of side zone_side.
struct LevelGeometry {
  int32_t zone_side = 0;  // cells
  int32_t zones_x = 0;
  int32_t zones_y = 0;

  static LevelGeometry For(const BuildParams& params, int32_t width,
                           int32_t height, int index);
  uint32_t zone_count() const {
    return static_cast<uint32_t>(zones_x) * zones_y;
  }
  ZoneLayout layout() const { return {zone_side, zones_x}; }
  ZoneId ZoneOf(Point p) const { return layout().ZoneOf(p); }
  Rect ZoneRect(ZoneId z, int32_t width, int32_t height) const;
};

// One level in canonical flat form: what the world file holds and the
// builder produces. At runtime a World holds levels as SharedLevel
// (shared_abstraction.h), which versions of a world share zone by zone.
struct AbstractLevel : LevelGeometry {
  // Node n of this level is beacon node_beacon[n]; nodes sorted by zone.
  std::vector<uint32_t> node_beacon;
  // CSR adjacency: edges of node n are edges[edge_begin[n] .. edge_begin[n+1]).
  std::vector<uint32_t> edge_begin;
  std::vector<AbstractEdge> edges;
  // Nodes of zone z: zone_node_begin[z] .. zone_node_begin[z+1] (nodes are
  // sorted by zone, so this indexes node ids directly).
  std::vector<uint32_t> zone_node_begin;
  // Zone-local component of each node: two nodes of one zone reach each
  // other inside the zone iff their labels are equal (the label is the
  // smallest node id of the component).
  std::vector<uint32_t> node_component;

  // A level with only its geometry set. Builder and loader both use it.
  static AbstractLevel WithGeometry(const BuildParams& params, int32_t width,
                                    int32_t height, int index) {
    AbstractLevel level;
    static_cast<LevelGeometry&>(level) =
        LevelGeometry::For(params, width, height, index);
    return level;
  }

  uint32_t node_count() const {
    return static_cast<uint32_t>(node_beacon.size());
  }
  size_t MemoryUsage() const;
};

// Level-1 intra-zone cell paths, kept when BuildParams::cache_paths is set:
// the moves of level-1 edge e are path_runs[path_begin[e] .. path_begin[e+1])
// (empty for inter-zone edges, whose single step is implied).
struct CachedPaths {
  std::vector<uint32_t> path_begin;
  std::vector<uint32_t>
      path_runs;  // PackRun(): direction low 3 bits, count << 3

  static uint32_t PackRun(const Run& run) {
    return (run.count << 3) | static_cast<uint32_t>(run.direction);
  }
  static Run UnpackRun(uint32_t packed) {
    return {static_cast<Direction>(packed & 7), packed >> 3};
  }
  size_t MemoryUsage() const {
    return path_begin.capacity() * 4 + path_runs.capacity() * 4;
  }
};

struct Abstraction {
  BuildParams params;
  std::vector<Point> beacons;         // BeaconId -> cell
  std::vector<AbstractLevel> levels;  // levels[0] is level 1
  CachedPaths cached_paths;           // empty unless params.cache_paths
  size_t MemoryUsage() const;
};

}  // namespace zonepath

#endif  // ZONEPATH_WORLD_ABSTRACTION_H_
