// The per-zone kernels of building an abstraction: entrances and beacons,
// level-1 zone Dijkstras, upper-level zone searches, CSR assembly, and the
// incremental update built from them. Shared by the offline builder
// (zonepath::offline, BuildWorld) and by runtime updates (zonepath::update,
// ApplyChanges), so an updated world is the same bytes as a built one.
// Internal: not a stable API; no Boost (runtime-safe). Installed with the
// other update headers (an install copies each library's include/).
//
//   std::vector<LevelBuildStats> stats;
//   Abstraction built = BuildAbstraction(grid, params, /*threads=*/2,
//                                        /*progress=*/{}, &stats);
//   // After cells inside level-1 zones `changed` got new costs (new_grid):
//   const std::vector<uint32_t> rehomed =
//       ZonesToRehome(old, new_grid, changed);
//   ZoneUpdateStats update_stats;
//   ASSIGN_OR_RETURN(SharedAbstraction next,
//                    UpdateAbstraction(old, new_grid, rehomed, 2,
//                                      &update_stats));
#ifndef ZONEPATH_UPDATE_ZONE_KERNELS_H_
#define ZONEPATH_UPDATE_ZONE_KERNELS_H_

#include <cstdint>
#include <functional>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "zonepath/grid/grid.h"
#include "zonepath/grid/path.h"
#include "zonepath/search/zone_dijkstra.h"
#include "zonepath/world/abstraction.h"
#include "zonepath/world/shared_abstraction.h"

namespace zonepath::update_internal {

// A border-crossing step between two beacons (ids into Abstraction::beacons).
struct InterEdge {
  uint32_t a;
  uint32_t b;
  double cost;
};

// One zone side of a border between level-1 zones: the cell pairs
// (line - 1, i) | (line, i) for a vertical border, (i, line - 1) | (i, line)
// for a horizontal one, i in [begin, end).
struct BorderSegment {
  bool vertical;
  int32_t line;
  int32_t begin;
  int32_t end;
};

// Appends the crossing steps (cell pairs, low side first) of the entrances
// on `segment`, placed by params.entrance_threshold and beacon_spacing.
void ScanBorderSegment(const Grid& grid, const BuildParams& params,
                       const BorderSegment& segment,
                       std::vector<std::pair<Point, Point>>* pairs);

// Finds level-1 entrances, fills `beacons` (sorted by level-1 zone, then
// row, then column) and the crossing steps between them.
void PlaceBeacons(const Grid& grid, const BuildParams& params,
                  const AbstractLevel& level1, std::vector<Point>* beacons,
                  std::vector<InterEdge>* inter_edges);

// Runs fn(zone) for zone in [0, zones) on `threads` threads; each thread gets
// its own index in [0, threads) for per-thread scratch.
void ParallelForZones(int64_t zones, int threads,
                      const std::function<void(int thread, int64_t zone)>& fn);

// Per-edge list of one node, before CSR assembly.
struct PendingEdge {
  uint32_t source;
  AbstractEdge edge;
  uint32_t path = kNoPath;  // index of a cached cell path, if any
  static constexpr uint32_t kNoPath = 0xFFFFFFFFu;
};

// The intra-zone edges of one zone, and (level 1 with cached paths) the
// packed runs of each edge's cell path, indexed by PendingEdge::path.
struct ZoneEdges {
  std::vector<PendingEdge> edges;
  std::vector<std::vector<uint32_t>> paths;
};

// Intra-zone edges of one level-1 zone inside `rect` whose nodes are
// first_id .. first_id + count - 1 at cells[0 .. count): an exact
// zone-restricted Dijkstra from each. The rest is per-thread scratch.
void SearchLevelOneZone(const Grid& grid, const BuildParams& params,
                        const Rect& rect, const Point* cells, uint32_t count,
                        uint32_t first_id, ZoneDijkstra* dijkstra,
                        RunLengthPath* buffer, std::vector<Point>* targets,
                        ZoneEdges* out);

// Level 1: one node per beacon (SetLevelOneNodes, called first), and
// intra-zone edges by SearchLevelOneZone.
void SetLevelOneNodes(const std::vector<Point>& beacons, AbstractLevel* level);
void BuildLevelOne(const Grid& grid, const BuildParams& params, int threads,
                   const std::vector<Point>& beacons,
                   const std::vector<InterEdge>& inter_edges,
                   AbstractLevel* level, CachedPaths* cached,
                   const std::function<void(int64_t, int64_t)>& progress);

// Reusable scratch of SearchUpperZone, sized by the largest zone seen (never
// by the level): after warm-up a zone search allocates nothing here.
struct UpperZoneScratch {
  std::vector<uint32_t> edge_begin;  // local CSR of the zone's level k-1 graph
  std::vector<uint32_t> edge_target;
  std::vector<double> edge_cost;
  std::vector<double> dist;
  std::vector<uint32_t> source_index;  // local node -> index in sources + 1
  std::vector<std::pair<double, uint32_t>> heap;
};

// Dijkstra from local node `source` over the scratch's local CSR
// (edge_begin, edge_target, edge_cost) of `node_count` nodes: fills
// scratch->dist (+inf where not reached), settling nodes in cost order until
// none is left or done(u) returns true for the node u just settled. Shared by
// SearchUpperZone and the connection tables (build_connection_tables.h).
void LocalDijkstra(uint32_t source, uint32_t node_count,
                   UpperZoneScratch* scratch,
                   absl::FunctionRef<bool(uint32_t)> done);

// Intra-zone edges of one level-k zone: shortest paths on level k-1
// restricted to the zone, whose `member_count` level k-1 nodes have local
// ids 0 .. member_count - 1, between `sources` (local ids; source i is level-k
// node first_id + i). edges_of(u, add) calls add(local target, cost) for
// every level k-1 edge from local node u that stays inside the zone. A
// binary-heap Dijkstra per source over a local CSR copy of that graph; the
// distances are the unique Dijkstra fixpoint, so they equal any exact
// shortest-path solver's (tests compare with Boost.Graph).
inline constexpr uint32_t kNoLocal = 0xFFFFFFFFu;
using AddBelowEdge = std::function<void(uint32_t target, float cost)>;
using BelowEdges = std::function<void(uint32_t u, const AddBelowEdge& add)>;
void SearchUpperZone(uint32_t member_count, const BelowEdges& edges_of,
                     const std::vector<uint32_t>& sources, uint32_t first_id,
                     UpperZoneScratch* scratch, std::vector<PendingEdge>* out);

// Which level-(k-1) crossings a level-k node stands for. The crossings of
// a level-k border are grouped by the two level-(k-1) zones they join and
// the zone-local components (on level k-1) of their two ends; the middle one
// of each group, by position along the border, is its representative (and
// on weighted grids a cheaper one too, PickRepresentatives), and
// only representatives' ends become level-k nodes. Any way across that piece
// of border can be rerouted through the representative inside the two
// zones, so every level keeps the grid's connectivity, while a level-k zone
// keeps a few nodes per level-(k-1) border piece instead of every crossing:
// the levels shrink ~group^2 times each, and so does an abstract search.
struct CrossingGroup {
  uint32_t zone_a, zone_b;  // level-(k-1) zones, zone_a < zone_b
  uint32_t comp_a, comp_b;  // their ends' component labels (level k-1)
  int32_t position;         // along the border
  bool SameGroup(const CrossingGroup& o) const {
    return zone_a == o.zone_a && zone_b == o.zone_b && comp_a == o.comp_a &&
           comp_b == o.comp_b;
  }
  bool operator<(const CrossingGroup& o) const {
    return std::tie(zone_a, zone_b, comp_a, comp_b, position) <
           std::tie(o.zone_a, o.zone_b, o.comp_a, o.comp_b, o.position);
  }
};
// A CrossingGroup's representatives, given the costs of its n >= 1
// crossings in order of position along the border (cost_at(k), k < n):
// the middle one, and where a crossing costs less than the middle one, also
// the middle one of the cheapest (cheapest == middle when none does; always
// on grids of one cost). A road crossing the border off the middle would
// otherwise have no node above level 1, and long ways would leave it at
// each border: on terrain 16384², 6.6 % over the optimum (24 % at worst)
// with 4 levels, against 1.2 % with 3 (README, "Cheaper crossings above
// level 1").
struct Representatives {
  size_t middle;
  size_t cheapest;
};
template <typename CostAt>
Representatives PickRepresentatives(size_t n, const CostAt& cost_at) {
  const size_t middle = (n - 1) / 2;
  const double at_middle = cost_at(middle);
  double least = at_middle;
  size_t count = 0;  // crossings costing `least`
  for (size_t k = 0; k < n; ++k) {
    const double c = cost_at(k);
    if (c < least) {
      least = c;
      count = 1;
    } else if (c == least) {
      ++count;
    }
  }
  if (!(least < at_middle)) return {middle, middle};
  size_t skip = (count - 1) / 2;
  for (size_t k = 0; k < n; ++k) {
    if (cost_at(k) == least && skip-- == 0) return {middle, k};
  }
  return {middle, middle};  // not reached: `count` crossings cost `least`
}

// The group of the straight crossing a -> b between level-(k-1) zones of
// `below` (an AbstractLevel or a SharedLevel).
template <typename Level>
CrossingGroup GroupOf(const Level& below, Point a, Point b, uint32_t comp_a,
                      uint32_t comp_b) {
  uint32_t za = below.ZoneOf(a).value(), zb = below.ZoneOf(b).value();
  if (za > zb) {
    std::swap(za, zb);
    std::swap(comp_a, comp_b);
  }
  return {za, zb, comp_a, comp_b, a.x == b.x ? a.x : a.y};
}

// Level k >= 2 from level k-1 (SearchUpperZone inside each zone).
// SetUpperLevelNodes sets the node lists (node_beacon, zone_node_begin) from
// the crossings of level k-1 (`below_crossings`; level 1: every crossing)
// and returns level k's crossing edges: those of level k-1 that cross a
// level-k border between two level-k nodes.
void SetUpperLevelNodes(const std::vector<Point>& beacons,
                        const std::vector<InterEdge>& below_crossings,
                        const AbstractLevel& below, AbstractLevel* level,
                        std::vector<InterEdge>* crossings);
void BuildUpperLevel(int threads, const std::vector<Point>& beacons,
                     const std::vector<InterEdge>& crossings,
                     const AbstractLevel& below, AbstractLevel* level,
                     const std::function<void(int64_t, int64_t)>& progress);

// Orders edges by (source, target, inter_zone) — a total order, so the
// result does not depend on the input order — fills edge_begin/edges, and
// labels each node's zone-local component from the intra-zone edges. Linear
// apart from sorting each node's few edges. Returns the ordered edges'
// `path` fields (for ordering cached paths).
std::vector<uint32_t> AssembleLevel(std::vector<PendingEdge> edges,
                                    AbstractLevel* level);
// The same for edges held in pieces (the level-1 build keeps each zone's
// edges apart and never concatenates them: one copy of the edges less at
// the build's peak). for_each_edge(fn) calls fn(edge) for each of the
// `edge_count` edges, the same edges in the same order on every call (it
// is called three times).
using PendingEdgeVisitor =
    absl::FunctionRef<void(absl::FunctionRef<void(const PendingEdge&)>)>;
std::vector<uint32_t> AssembleLevel(PendingEdgeVisitor for_each_edge,
                                    size_t edge_count, AbstractLevel* level);

// Writes a level built from scratch zone by zone, in node order (a zone's
// nodes are consecutive), as its zones' intra-zone edges are searched, so a
// build holds only the edge lists of the zones not yet written (a chunk)
// beside the level, never the whole level's lists. The bytes equal
// AssembleLevel's for the same edges. The edge array reserves an upper
// bound (k (k - 1) intra-zone edges for a zone of k nodes, plus the
// crossings): reserved pages cost no memory until written, and the array
// is never copied to grow.
//
//   LevelWriter writer(level, crossings, node_of, cached_or_null);
//   for each zone z in order: writer.WriteZone(z, &zone_edges, &zone_paths);
class LevelWriter {
 public:
  // `crossings`' ends are mapped to this level's nodes by node_of (identity
  // on level 1, beacon -> node above); each gives an inter-zone edge in
  // both directions. With `cached` (level 1 with cached paths) the zones'
  // paths are written in edge order.
  LevelWriter(AbstractLevel* level, const std::vector<InterEdge>& crossings,
              absl::FunctionRef<uint32_t(uint32_t)> node_of,
              CachedPaths* cached);
  // Zone z's intra-zone edges (any order; sorted here, then cleared) and,
  // with cached paths, the packed runs each edge's `path` indexes. Zones
  // must come in order 0, 1, ...
  void WriteZone(int64_t z, std::vector<PendingEdge>* intra,
                 const std::vector<std::vector<uint32_t>>* paths);

 private:
  struct Out {
    AbstractEdge edge;
    uint32_t path;
  };
  AbstractLevel* level_;
  CachedPaths* cached_;
  std::vector<uint32_t> crossing_begin_;  // CSR by node
  std::vector<AbstractEdge> crossing_edges_;
  std::vector<Out> node_edges_;
  std::vector<uint32_t> parent_;
};

// One level's figures, filled by BuildAbstraction.
struct LevelBuildStats {
  int64_t zones = 0;
  int64_t nodes = 0;
  int64_t edges = 0;
  int64_t zones_searched = 0;  // zones whose edges were computed, not copied
  double seconds = 0;
};

// Builds every level of `grid`'s abstraction from scratch.
using StageProgress =
    std::function<std::function<void(int64_t, int64_t)>(int level)>;
Abstraction BuildAbstraction(const Grid& grid, const BuildParams& params,
                             int threads, const StageProgress& progress,
                             std::vector<LevelBuildStats>* stats);

// What UpdateAbstraction did.
struct ZoneUpdateStats {
  std::vector<ZoneId> affected_zones;   // level-1 zones searched again, sorted
  std::vector<int64_t> zones_searched;  // per level
  // Per level (index 0 = level 1): the zones rebuilt with fresh node ids,
  // sorted. An upper zone's level-(j-1) graph changes only if one of its
  // level-(j-1) zones is rebuilt, which rebuilds it too.
  std::vector<std::vector<uint32_t>> rehomed_zones;
  bool compacted = false;  // laid out afresh (ToFlat/FromFlat)
};

// Level-1 zones of `old` to rebuild after its grid became `grid` by changes
// inside the level-1 zones `changed` (sorted): those and every zone next to
// one whose beacons moved. Sorted.
std::vector<uint32_t> ZonesToRehome(const SharedAbstraction& old,
                                    const Grid& grid,
                                    const std::vector<uint32_t>& changed);

// The abstraction of `grid`, made from `old` by rebuilding the level-1 zones
// `rehomed` (from ZonesToRehome), the zones above that contain them, and the
// edge lists of their neighbours, into fresh ranges at the end of the
// arrays; everything else keeps its ids and shares its pages with `old`.
// Lays the result out afresh when dead ranges outgrow live ones. Zone
// searches run on `threads` threads; the result does not depend on it.
// FailedPrecondition if `old` does not match the grid it claims (a crossing
// without beacons), which a loaded world can only do if its file was made
// to pass the loader's checks.
absl::StatusOr<SharedAbstraction> UpdateAbstraction(
    const SharedAbstraction& old, const Grid& grid,
    const std::vector<uint32_t>& rehomed, int threads, ZoneUpdateStats* stats);

}  // namespace zonepath::update_internal

#endif  // ZONEPATH_UPDATE_ZONE_KERNELS_H_
