// Incremental updates, copy-on-write per zone: only the zones a batch of
// cell changes can reach are rebuilt, into fresh id ranges at the end of the
// SharedAbstraction's arrays, so every other zone keeps its ids and shares
// its pages with the version before.
//
// Per level, two sets of zones:
//   rehomed  level 1: zones with a changed cell or a changed beacon list;
//            level k: zones containing a rehomed level k-1 zone, and zones
//            containing a ring zone of level k-1 whose node list changed
//            (a ring zone's beacon can stop crossing the level-k border
//            while staying a beacon for another crossing). They get new
//            node ids and are searched again.
//   ring     untouched zones next to a rehomed one: same nodes and
//            intra-zone edges, but their crossing edges point into a rehomed
//            zone (new ids, maybe new costs), so their edge lists are
//            written again (intra-zone edges copied, crossings recomputed).
// Everything else is shared as it was.
#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "zonepath/grid/moves.h"
#include "zonepath/update/zone_kernels.h"

namespace zonepath::update_internal {
namespace {

constexpr uint32_t kNone = 0xFFFFFFFFu;

void SortUnique(std::vector<uint32_t>* v) {
  std::sort(v->begin(), v->end());
  v->erase(std::unique(v->begin(), v->end()), v->end());
}

// Zones of `g` sharing a border with a zone in `zones` (sorted) but not in
// it.
std::vector<uint32_t> Ring(const LevelGeometry& g,
                           const std::vector<uint32_t>& zones) {
  std::vector<uint32_t> near;
  const uint32_t zx_count = static_cast<uint32_t>(g.zones_x);
  const uint32_t zy_count = static_cast<uint32_t>(g.zones_y);
  for (uint32_t z : zones) {
    const uint32_t zx = z % zx_count, zy = z / zx_count;
    if (zx > 0) near.push_back(z - 1);
    if (zx + 1 < zx_count) near.push_back(z + 1);
    if (zy > 0) near.push_back(z - zx_count);
    if (zy + 1 < zy_count) near.push_back(z + zx_count);
  }
  SortUnique(&near);
  std::vector<uint32_t> ring;
  std::set_difference(near.begin(), near.end(), zones.begin(), zones.end(),
                      std::back_inserter(ring));
  return ring;
}

struct Crossing {
  Point inside;
  Point outside;
  float cost;
};

// The beacons of the level-1 zone `rect` (sorted by row, then column, as
// PlaceBeacons orders them) and its crossing steps.
void ScanZone(const Grid& grid, const BuildParams& params, const Rect& rect,
              std::vector<Point>* cells, std::vector<Crossing>* crossings) {
  std::vector<std::pair<Point, Point>> pairs;
  if (rect.x0 > 0) {
    ScanBorderSegment(grid, params, {true, rect.x0, rect.y0, rect.y1}, &pairs);
  }
  if (rect.x1 < grid.width()) {
    ScanBorderSegment(grid, params, {true, rect.x1, rect.y0, rect.y1}, &pairs);
  }
  if (rect.y0 > 0) {
    ScanBorderSegment(grid, params, {false, rect.y0, rect.x0, rect.x1}, &pairs);
  }
  if (rect.y1 < grid.height()) {
    ScanBorderSegment(grid, params, {false, rect.y1, rect.x0, rect.x1}, &pairs);
  }
  cells->clear();
  crossings->clear();
  for (const auto& [a, b] : pairs) {
    const bool a_inside = rect.Contains(a);
    const Direction d = *DirectionFromDelta(b.x - a.x, b.y - a.y);
    const float cost =
        static_cast<float>(StepCost(d, grid.cost(a), grid.cost(b)));
    crossings->push_back({a_inside ? a : b, a_inside ? b : a, cost});
    cells->push_back(a_inside ? a : b);
  }
  std::sort(cells->begin(), cells->end(), [](Point a, Point b) {
    return std::tie(a.y, a.x) < std::tie(b.y, b.x);
  });
  cells->erase(std::unique(cells->begin(), cells->end()), cells->end());
}

class Updater {
 public:
  Updater(const SharedAbstraction& old, const Grid& grid, int threads)
      : old_(old),
        a_(old),
        grid_(grid),
        params_(old.params),
        threads_(std::max(1, threads)) {}

  // The first inconsistency found between the old abstraction and its
  // grid (possible only for a world whose file was crafted to pass the
  // loader's checks); the update's result is then discarded.
  const absl::Status& status() const { return status_; }

  SharedAbstraction Run(const std::vector<uint32_t>& rehomed,
                        ZoneUpdateStats* stats) {
    stats->zones_searched.assign(a_.levels.size(), 0);
    stats->rehomed_zones.assign(a_.levels.size(), {});
    std::vector<uint32_t> zones = rehomed;
    for (size_t i = 0; i < a_.levels.size(); ++i) {
      if (i > 0) zones = RehomedAbove(i, zones);
      stats->zones_searched[i] = static_cast<int64_t>(zones.size());
      stats->rehomed_zones[i] = zones;
      if (i == 0) {
        UpdateLevelOne(zones);
      } else {
        UpdateUpperLevel(i, zones);
      }
    }
    return std::move(a_);
  }

 private:
  void UpdateLevelOne(const std::vector<uint32_t>& rehomed) {
    SharedLevel& level = a_.levels[0];
    std::vector<Point> cells;
    // Each rehomed zone's crossings, kept from the scan that places its
    // beacons for writing its edges below.
    std::vector<std::vector<Crossing>> crossings(rehomed.size());
    for (size_t k = 0; k < rehomed.size(); ++k) {
      const uint32_t z = rehomed[k];
      ScanZone(grid_, params_, Rect1(z), &cells, &crossings[k]);
      const uint32_t first = level.node_count();
      for (uint32_t i = 0; i < cells.size(); ++i) {
        a_.beacons.PushBack(cells[i]);
        AddNode(&level, first + i);
      }
      SetZoneRange(0, z, first, static_cast<uint32_t>(cells.size()));
    }
    // Searches in parallel (they only read), writes in zone order.
    std::vector<ZoneEdges> results(rehomed.size());
    struct Scratch {
      std::unique_ptr<ZoneDijkstra> dijkstra;
      RunLengthPath buffer;
      std::vector<Point> targets, cells;
    };
    std::vector<Scratch> scratch(threads_);
    ParallelForZones(
        static_cast<int64_t>(rehomed.size()), threads_, [&](int t, int64_t k) {
          Scratch& s = scratch[t];
          if (!s.dijkstra) {
            s.dijkstra = std::make_unique<ZoneDijkstra>(level.zone_side);
          }
          const uint32_t z = rehomed[k];
          const uint32_t first = level.zone_node_begin[z];
          const uint32_t count = level.zone_node_end[z] - first;
          s.cells.clear();
          for (uint32_t v = first; v < first + count; ++v) {
            s.cells.push_back(a_.beacons[v]);
          }
          SearchLevelOneZone(grid_, params_, Rect1(z), s.cells.data(), count,
                             first, s.dijkstra.get(), &s.buffer, &s.targets,
                             &results[k]);
        });
    for (size_t k = 0; k < rehomed.size(); ++k) {
      ZoneEdges& work = results[k];
      AddLevelOneCrossings(crossings[k], &work);
      WriteZone(0, rehomed[k], &work);
      LabelComponents(0, rehomed[k], work);
      work = ZoneEdges();
    }
    std::vector<Crossing> ring_crossings;
    for (uint32_t z : Ring(level, rehomed)) {
      ZoneEdges work;
      CopyIntraZoneEdges(0, z, &work);
      ScanZone(grid_, params_, Rect1(z), &cells, &ring_crossings);
      AddLevelOneCrossings(ring_crossings, &work);
      WriteZone(0, z, &work);
    }
  }

  void AddLevelOneCrossings(const std::vector<Crossing>& crossings,
                            ZoneEdges* work) {
    for (const Crossing& c : crossings) {
      const uint32_t from = LevelOneNodeAt(c.inside);
      const uint32_t to = LevelOneNodeAt(c.outside);
      if (from == kNone || to == kNone) {
        Mismatch(absl::StrCat("crossing ", PointString(c.inside), " -> ",
                              PointString(c.outside), " has no beacon"));
        continue;
      }
      work->edges.push_back({from, {to, 1, c.cost}});
    }
  }

  // Level-k zones to rehome, given the rehomed level k-1 zones: their
  // parents, and the parents of their ring whose node list changed (a
  // beacon of a ring zone may stop or start crossing the parent's border
  // while the ring zone keeps its beacons).
  std::vector<uint32_t> RehomedAbove(size_t i,
                                     const std::vector<uint32_t>& below) {
    std::vector<uint32_t> zones = Parents(i, below);
    const SharedLevel& level = a_.levels[i];
    std::vector<uint32_t> members, sources;
    std::vector<uint32_t> more;
    for (uint32_t z : Parents(i, Ring(a_.levels[i - 1], below))) {
      if (std::binary_search(zones.begin(), zones.end(), z)) continue;
      ZoneNodes(i, z, &members, &sources);
      const uint32_t first = level.zone_node_begin[z];
      bool same = level.zone_node_end[z] - first == sources.size();
      for (uint32_t k = 0; same && k < sources.size(); ++k) {
        same = level.node_beacon[first + k] ==
               a_.levels[i - 1].node_beacon[sources[k]];
      }
      if (!same) more.push_back(z);
    }
    zones.insert(zones.end(), more.begin(), more.end());
    SortUnique(&zones);
    return zones;
  }

  // The level k-1 nodes inside level-k zone z (`members`) and those of them
  // that are level-k nodes (`sources`: a crossing edge leaves the zone),
  // ordered like the builder orders nodes (level-1 zone, row, column).
  void ZoneNodes(size_t i, uint32_t z, std::vector<uint32_t>* members,
                 std::vector<uint32_t>* sources) {
    const SharedLevel& below = a_.levels[i - 1];
    const LevelGeometry& l1 = a_.levels[0];
    *members = BelowNodesIn(i, z);
    sources->clear();
    const Rect rect = ZoneRect(i, z);
    for (uint32_t u : *members) {
      if (RepresentsCrossingOut(below, u, rect)) sources->push_back(u);
    }
    auto key = [&](uint32_t u) {
      const Point p = a_.beacons[below.node_beacon[u]];
      return std::make_tuple(l1.ZoneOf(p).value(), p.y, p.x);
    };
    std::sort(sources->begin(), sources->end(),
              [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
  }

  void UpdateUpperLevel(size_t i, const std::vector<uint32_t>& rehomed) {
    SharedLevel& level = a_.levels[i];
    const SharedLevel& below = a_.levels[i - 1];
    std::vector<std::vector<uint32_t>> sources(rehomed.size());
    std::vector<std::vector<uint32_t>> members(rehomed.size());
    for (size_t k = 0; k < rehomed.size(); ++k) {
      const uint32_t z = rehomed[k];
      ZoneNodes(i, z, &members[k], &sources[k]);
      const uint32_t first = level.node_count();
      for (uint32_t j = 0; j < sources[k].size(); ++j) {
        level.node_beacon.PushBack(below.node_beacon[sources[k][j]]);
        AddNode(&level, first + j);
      }
      SetZoneRange(i, z, first, static_cast<uint32_t>(sources[k].size()));
    }
    // Searches in parallel (they only read), writes in zone order.
    std::vector<ZoneEdges> results(rehomed.size());
    std::vector<SearchScratch> scratch(threads_);
    ParallelForZones(static_cast<int64_t>(rehomed.size()), threads_,
                     [&](int t, int64_t k) {
                       SearchZone(below, members[k], sources[k],
                                  level.zone_node_begin[rehomed[k]],
                                  &scratch[t], &results[k].edges);
                     });
    for (size_t k = 0; k < rehomed.size(); ++k) {
      ZoneEdges& work = results[k];
      AddUpperCrossings(i, rehomed[k], &work);
      WriteZone(i, rehomed[k], &work);
      LabelComponents(i, rehomed[k], work);
      work = ZoneEdges();
    }
    for (uint32_t z : Ring(level, rehomed)) {
      ZoneEdges work;
      CopyIntraZoneEdges(i, z, &work);
      AddUpperCrossings(i, z, &work);
      WriteZone(i, z, &work);
    }
  }

  // Level-k intra-zone search over compact local ids (no scratch sized by
  // the whole level); `scratch` is the calling thread's, reused per zone.
  struct SearchScratch {
    absl::flat_hash_map<uint32_t, uint32_t> compact;
    std::vector<uint32_t> sources;
    UpperZoneScratch search;
  };
  void SearchZone(const SharedLevel& below,
                  const std::vector<uint32_t>& members,
                  const std::vector<uint32_t>& sources, uint32_t first,
                  SearchScratch* scratch, std::vector<PendingEdge>* out) {
    absl::flat_hash_map<uint32_t, uint32_t>& compact = scratch->compact;
    compact.clear();
    for (uint32_t m = 0; m < members.size(); ++m) compact[members[m]] = m;
    scratch->sources.clear();
    for (uint32_t u : sources) scratch->sources.push_back(compact.at(u));
    const BelowEdges edges_of = [&](uint32_t m, const AddBelowEdge& add) {
      const uint32_t u = members[m];
      for (uint32_t e = below.edge_begin[u]; e < below.edge_end[u]; ++e) {
        const auto it = compact.find(below.edges[e].target);
        if (it != compact.end()) add(it->second, below.edges[e].cost);
      }
    };
    SearchUpperZone(static_cast<uint32_t>(members.size()), edges_of,
                    scratch->sources, first, &scratch->search, out);
  }

  // Crossing edges of level-k zone z's nodes: the level k-1 crossing edges
  // of their beacons that leave the zone.
  void AddUpperCrossings(size_t i, uint32_t z, ZoneEdges* work) {
    const SharedLevel& level = a_.levels[i];
    const SharedLevel& below = a_.levels[i - 1];
    const Rect rect = ZoneRect(i, z);
    for (uint32_t v = level.zone_node_begin[z]; v < level.zone_node_end[z];
         ++v) {
      const uint32_t u = NodeOfBeacon(i - 1, level.node_beacon[v]);
      if (u == kNone) {
        Mismatch(absl::StrCat("level ", i + 1, " node ", v,
                              " is not a node of level ", i));
        continue;
      }
      for (uint32_t e = below.edge_begin[u]; e < below.edge_end[u]; ++e) {
        const AbstractEdge& edge = below.edges[e];
        if (!edge.inter_zone) continue;
        const uint32_t beacon = below.node_beacon[edge.target];
        if (rect.Contains(a_.beacons[beacon])) continue;
        // Only crossings between two level-k nodes are level-k edges.
        const uint32_t to = NodeOfBeacon(i, beacon);
        if (to == kNone) continue;
        work->edges.push_back({v, {to, 1, edge.cost}});
      }
    }
  }

  // True if level k-1 node u has a crossing out of `rect` (a level-k zone)
  // that represents its CrossingGroup, as the full build picks them
  // (PickRepresentatives over the group's crossings by position).
  bool RepresentsCrossingOut(const SharedLevel& below, uint32_t u,
                             const Rect& rect) {
    const Point a = a_.beacons[below.node_beacon[u]];
    const ZoneId za = below.ZoneOf(a);
    for (uint32_t e = below.edge_begin[u]; e < below.edge_end[u]; ++e) {
      const AbstractEdge& edge = below.edges[e];
      const Point b = a_.beacons[below.node_beacon[edge.target]];
      if (!edge.inter_zone || rect.Contains(b)) continue;
      const CrossingGroup group = GroupOf(below, a, b, below.node_component[u],
                                          below.node_component[edge.target]);
      const ZoneId zb = below.ZoneOf(b);
      positions_.clear();
      for (uint32_t x = below.zone_node_begin[za.value()];
           x < below.zone_node_end[za.value()]; ++x) {
        if (below.node_component[x] != below.node_component[u]) continue;
        const Point px = a_.beacons[below.node_beacon[x]];
        for (uint32_t f = below.edge_begin[x]; f < below.edge_end[x]; ++f) {
          const AbstractEdge& cross = below.edges[f];
          const Point py = a_.beacons[below.node_beacon[cross.target]];
          if (cross.inter_zone && below.ZoneOf(py) == zb &&
              below.node_component[cross.target] ==
                  below.node_component[edge.target]) {
            positions_.push_back({px.x == py.x ? px.x : px.y, cross.cost});
          }
        }
      }
      if (positions_.empty()) continue;
      std::sort(positions_.begin(), positions_.end());
      const Representatives reps = PickRepresentatives(
          positions_.size(), [&](size_t k) { return positions_[k].second; });
      if (positions_[reps.middle].first == group.position ||
          positions_[reps.cheapest].first == group.position) {
        return true;
      }
    }
    return false;
  }

  // Level k-1 nodes inside level-k zone z.
  std::vector<uint32_t> BelowNodesIn(size_t i, uint32_t z) {
    const SharedLevel& below = a_.levels[i - 1];
    const Rect rect = ZoneRect(i, z);
    const int32_t s = below.zone_side;
    std::vector<uint32_t> nodes;
    for (int32_t cy = rect.y0 / s; cy <= (rect.y1 - 1) / s; ++cy) {
      for (int32_t cx = rect.x0 / s; cx <= (rect.x1 - 1) / s; ++cx) {
        const uint32_t c = static_cast<uint32_t>(cy) * below.zones_x + cx;
        for (uint32_t v = below.zone_node_begin[c]; v < below.zone_node_end[c];
             ++v) {
          nodes.push_back(v);
        }
      }
    }
    return nodes;
  }

  // Level-k zones containing the level k-1 zones `zones`.
  std::vector<uint32_t> Parents(size_t i, const std::vector<uint32_t>& zones) {
    std::vector<uint32_t> parents;
    for (uint32_t z : zones) {
      const Rect r = ZoneRect(i - 1, z);
      parents.push_back(a_.levels[i].ZoneOf({r.x0, r.y0}).value());
    }
    SortUnique(&parents);
    return parents;
  }

  // The node of level index i (0 = level 1) whose beacon is `beacon`, and
  // the level-1 node at `cell`: a scan of the zone's few nodes.
  uint32_t NodeOfBeacon(size_t i, uint32_t beacon) {
    if (i == 0) return beacon;  // level-1 node n is beacon n
    const SharedLevel& level = a_.levels[i];
    const uint32_t z = level.ZoneOf(a_.beacons[beacon]).value();
    for (uint32_t v = level.zone_node_begin[z]; v < level.zone_node_end[z];
         ++v) {
      if (level.node_beacon[v] == beacon) return v;
    }
    return kNone;
  }
  uint32_t LevelOneNodeAt(Point cell) {
    const SharedLevel& level = a_.levels[0];
    const uint32_t z = level.ZoneOf(cell).value();
    for (uint32_t v = level.zone_node_begin[z]; v < level.zone_node_end[z];
         ++v) {
      if (a_.beacons[v] == cell) return v;  // level-1 node n is beacon n
    }
    return kNone;
  }

  void AddNode(SharedLevel* level, uint32_t id) {
    level->edge_begin.PushBack(0);
    level->edge_end.PushBack(0);
    level->node_component.PushBack(id);
    if (level == &a_.levels[0]) level->node_beacon.PushBack(id);
  }

  void SetZoneRange(size_t i, uint32_t z, uint32_t first, uint32_t count) {
    SharedLevel& level = a_.levels[i];
    level.live_nodes +=
        int64_t{count} - (level.zone_node_end[z] - level.zone_node_begin[z]);
    level.zone_node_begin.Set(z, first);
    level.zone_node_end.Set(z, first + count);
  }

  // The intra-zone edges (and cached paths) of zone z as the old version
  // has them; only for zones whose node ids did not change.
  void CopyIntraZoneEdges(size_t i, uint32_t z, ZoneEdges* work) {
    const SharedLevel& old = old_.levels[i];
    const SharedCachedPaths& cached = old_.cached_paths;
    const bool with_paths = i == 0 && params_.cache_paths;
    for (uint32_t v = old.zone_node_begin[z]; v < old.zone_node_end[z]; ++v) {
      for (uint32_t e = old.edge_begin[v]; e < old.edge_end[v]; ++e) {
        const AbstractEdge& edge = old.edges[e];
        if (edge.inter_zone) continue;
        PendingEdge copy{v, edge};
        if (with_paths) {
          copy.path = static_cast<uint32_t>(work->paths.size());
          std::vector<uint32_t>& runs = work->paths.emplace_back();
          for (uint32_t r = cached.path_begin[e]; r < cached.path_begin[e + 1];
               ++r) {
            runs.push_back(cached.path_runs[r]);
          }
        }
        work->edges.push_back(copy);
      }
    }
  }

  // Appends zone z's edges (and cached paths) at the end of the level's
  // arrays and points its nodes' edge ranges there.
  void WriteZone(size_t i, uint32_t z, ZoneEdges* work) {
    SharedLevel& level = a_.levels[i];
    const SharedLevel& old = old_.levels[i];
    for (uint32_t v = old.zone_node_begin[z]; v < old.zone_node_end[z]; ++v) {
      level.live_edges -= old.edge_end[v] - old.edge_begin[v];
    }
    std::vector<PendingEdge>& edges = work->edges;
    // Each node's edges sorted by target, as the loader requires: the
    // searches rely on its intra-zone edges being one block.
    std::sort(
        edges.begin(), edges.end(),
        [](const PendingEdge& a, const PendingEdge& b) {
          return std::make_tuple(a.source, a.edge.target, a.edge.inter_zone) <
                 std::make_tuple(b.source, b.edge.target, b.edge.inter_zone);
        });
    const bool with_paths = i == 0 && params_.cache_paths;
    SharedCachedPaths& cached = a_.cached_paths;
    size_t next = 0;
    for (uint32_t v = level.zone_node_begin[z]; v < level.zone_node_end[z];
         ++v) {
      level.edge_begin.Set(v, static_cast<uint32_t>(level.edges.size()));
      for (; next < edges.size() && edges[next].source == v; ++next) {
        level.edges.PushBack(edges[next].edge);
        if (with_paths) {
          const uint32_t path = edges[next].path;
          if (path != PendingEdge::kNoPath) {
            const std::vector<uint32_t>& runs = work->paths[path];
            cached.path_runs.Append(runs.data(), runs.size());
          }
          cached.path_begin.PushBack(
              static_cast<uint32_t>(cached.path_runs.size()));
        }
      }
      level.edge_end.Set(v, static_cast<uint32_t>(level.edges.size()));
    }
    level.live_edges += static_cast<int64_t>(edges.size());
  }

  // Zone-local components of a rehomed zone from its intra-zone edges;
  // the label is the smallest node id of the component.
  void LabelComponents(size_t i, uint32_t z, const ZoneEdges& work) {
    SharedLevel& level = a_.levels[i];
    const uint32_t first = level.zone_node_begin[z];
    const uint32_t count = level.zone_node_end[z] - first;
    std::vector<uint32_t> parent(count);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](uint32_t x) {
      while (parent[x] != x) x = parent[x] = parent[parent[x]];
      return x;
    };
    for (const PendingEdge& e : work.edges) {
      if (e.edge.inter_zone) continue;
      const uint32_t a = find(e.source - first),
                     b = find(e.edge.target - first);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
    for (uint32_t v = 0; v < count; ++v) {
      level.node_component.Set(first + v, first + find(v));
    }
  }

  void Mismatch(const std::string& what) {
    if (status_.ok()) {
      status_ = absl::FailedPreconditionError(
          absl::StrCat("the world's abstraction does not match its grid (",
                       what, "); rebuild the world from its map"));
    }
  }

  Rect Rect1(uint32_t z) const { return ZoneRect(0, z); }
  Rect ZoneRect(size_t i, uint32_t z) const {
    return a_.levels[i].ZoneRect(ZoneId(z), grid_.width(), grid_.height());
  }

  const SharedAbstraction& old_;
  SharedAbstraction a_;
  const Grid& grid_;
  const BuildParams params_;
  const int threads_;
  absl::Status status_;
  // RepresentsCrossingOut's scratch: a group's crossings, position and cost.
  std::vector<std::pair<int32_t, double>> positions_;
};

}  // namespace

std::vector<uint32_t> ZonesToRehome(const SharedAbstraction& old,
                                    const Grid& grid,
                                    const std::vector<uint32_t>& changed) {
  const SharedLevel& level = old.levels[0];
  std::vector<uint32_t> rehome = changed;
  std::vector<Point> cells;
  std::vector<Crossing> crossings;
  for (uint32_t z : Ring(level, changed)) {
    ScanZone(grid, old.params,
             level.ZoneRect(ZoneId(z), grid.width(), grid.height()), &cells,
             &crossings);
    const uint32_t first = level.zone_node_begin[z];
    bool same = level.zone_node_end[z] - first == cells.size();
    for (uint32_t k = 0; same && k < cells.size(); ++k) {
      same = old.beacons[first + k] == cells[k];
    }
    if (!same) rehome.push_back(z);
  }
  SortUnique(&rehome);
  return rehome;
}

absl::StatusOr<SharedAbstraction> UpdateAbstraction(
    const SharedAbstraction& old, const Grid& grid,
    const std::vector<uint32_t>& rehomed, int threads, ZoneUpdateStats* stats) {
  Updater updater(old, grid, threads);
  SharedAbstraction a = updater.Run(rehomed, stats);
  if (!updater.status().ok()) return updater.status();
  stats->affected_zones.clear();
  for (uint32_t z : rehomed) stats->affected_zones.push_back(ZoneId(z));
  stats->compacted = a.NeedsCompaction();
  if (stats->compacted) a = SharedAbstraction::FromFlat(a.ToFlat());
  return a;
}

}  // namespace zonepath::update_internal
