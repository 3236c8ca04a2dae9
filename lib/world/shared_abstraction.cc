#include "zonepath/world/shared_abstraction.h"

#include <algorithm>
#include <limits>
#include <tuple>

namespace zonepath {
namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// Per-node (or per-zone) ranges from CSR offsets: begin[i], begin[i + 1].
void SplitOffsets(const std::vector<uint32_t>& offsets,
                  CowArray<uint32_t>* begin, CowArray<uint32_t>* end) {
  if (offsets.empty()) return;
  begin->Append(offsets.data(), offsets.size() - 1);
  end->Append(offsets.data() + 1, offsets.size() - 1);
}

}  // namespace

size_t SharedLevel::MemoryUsage() const {
  // A loaded level's begin and end arrays view one offsets section (shifted
  // by one entry): its pages are counted once (see MappedBytes).
  return sizeof(*this) + node_beacon.MemoryUsage() + edge_begin.MemoryUsage() +
         edge_end.MemoryUsage() + edges.MemoryUsage() +
         zone_node_begin.MemoryUsage() + zone_node_end.MemoryUsage() +
         node_component.MemoryUsage() -
         std::min(edge_begin.MappedBytes(), edge_end.MappedBytes()) -
         std::min(zone_node_begin.MappedBytes(), zone_node_end.MappedBytes());
}

size_t SharedLevel::OwnedBytes() const {
  return node_beacon.OwnedBytes() + edge_begin.OwnedBytes() +
         edge_end.OwnedBytes() + edges.OwnedBytes() +
         zone_node_begin.OwnedBytes() + zone_node_end.OwnedBytes() +
         node_component.OwnedBytes();
}

size_t SharedLevel::MappedBytes() const {
  // A loaded level's begin and end arrays view one offsets section (shifted
  // by one entry): count its bytes once.
  return node_beacon.MappedBytes() +
         std::max(edge_begin.MappedBytes(), edge_end.MappedBytes()) +
         edges.MappedBytes() +
         std::max(zone_node_begin.MappedBytes(), zone_node_end.MappedBytes()) +
         node_component.MappedBytes();
}

SharedAbstraction SharedAbstraction::FromFlat(const Abstraction& flat) {
  SharedAbstraction a;
  a.params = flat.params;
  a.beacons = CowArray<BeaconCell>::FromVector(
      std::vector<BeaconCell>(flat.beacons.begin(), flat.beacons.end()));
  a.levels.resize(flat.levels.size());
  for (size_t i = 0; i < flat.levels.size(); ++i) {
    const AbstractLevel& f = flat.levels[i];
    SharedLevel& s = a.levels[i];
    static_cast<LevelGeometry&>(s) = f;
    s.node_beacon = CowArray<uint32_t>::FromVector(f.node_beacon);
    SplitOffsets(f.edge_begin, &s.edge_begin, &s.edge_end);
    s.edges = CowArray<AbstractEdge>::FromVector(f.edges);
    SplitOffsets(f.zone_node_begin, &s.zone_node_begin, &s.zone_node_end);
    s.node_component = CowArray<uint32_t>::FromVector(f.node_component);
    s.live_nodes = f.node_count();
    s.live_edges = static_cast<int64_t>(f.edges.size());
  }
  a.cached_paths.path_begin =
      CowArray<uint32_t>::FromVector(flat.cached_paths.path_begin);
  a.cached_paths.path_runs =
      CowArray<uint32_t>::FromVector(flat.cached_paths.path_runs);
  return a;
}

Abstraction SharedAbstraction::ToFlat() const {
  Abstraction out;
  out.params = params;
  out.levels.resize(levels.size());
  // Canonical id of each beacon (= canonical level-1 node).
  std::vector<uint32_t> canon_beacon(beacons.size(), kNone);
  const bool with_paths = params.cache_paths;
  if (with_paths) out.cached_paths.path_begin.push_back(0);
  std::vector<uint32_t> nodes;
  struct Edge {
    AbstractEdge edge;
    uint32_t old;  // edge id in this abstraction
  };
  std::vector<Edge> node_edges;
  for (size_t i = 0; i < levels.size(); ++i) {
    const SharedLevel& s = levels[i];
    AbstractLevel& f = out.levels[i];
    static_cast<LevelGeometry&>(f) = s;
    std::vector<uint32_t> canon(s.node_count(), kNone);
    std::vector<uint32_t> order;  // old node id of each canonical node
    order.reserve(static_cast<size_t>(s.live_nodes));
    f.zone_node_begin.assign(1, 0);
    for (uint32_t z = 0; z < s.zone_count(); ++z) {
      nodes.clear();
      for (uint32_t v = s.zone_node_begin[z]; v < s.zone_node_end[z]; ++v) {
        nodes.push_back(v);
      }
      if (i == 0) {  // the builder's order: row, then column
        std::sort(nodes.begin(), nodes.end(), [&](uint32_t a, uint32_t b) {
          const Point pa = beacons[a], pb = beacons[b];
          return std::tie(pa.y, pa.x) < std::tie(pb.y, pb.x);
        });
      } else {  // by canonical beacon id
        std::sort(nodes.begin(), nodes.end(), [&](uint32_t a, uint32_t b) {
          return canon_beacon[s.node_beacon[a]] <
                 canon_beacon[s.node_beacon[b]];
        });
      }
      for (uint32_t v : nodes) {
        canon[v] = static_cast<uint32_t>(order.size());
        order.push_back(v);
        if (i == 0) {
          canon_beacon[v] = canon[v];
          out.beacons.push_back(beacons[v]);
        }
      }
      f.zone_node_begin.push_back(static_cast<uint32_t>(order.size()));
    }
    const uint32_t n = static_cast<uint32_t>(order.size());
    f.node_beacon.resize(n);
    f.node_component.resize(n);
    std::vector<uint32_t> component_min(s.node_count(), kNone);
    for (uint32_t c = 0; c < n; ++c) {
      const uint32_t v = order[c];
      f.node_beacon[c] = canon_beacon[s.node_beacon[v]];
      uint32_t& m = component_min[s.node_component[v]];
      m = std::min(m, c);
    }
    f.edge_begin.assign(1, 0);
    for (uint32_t c = 0; c < n; ++c) {
      const uint32_t v = order[c];
      f.node_component[c] = component_min[s.node_component[v]];
      node_edges.clear();
      for (uint32_t e = s.edge_begin[v]; e < s.edge_end[v]; ++e) {
        AbstractEdge edge = s.edges[e];
        edge.target = canon[edge.target];
        node_edges.push_back({edge, e});
      }
      std::sort(node_edges.begin(), node_edges.end(),
                [](const Edge& a, const Edge& b) {
                  return std::make_tuple(a.edge.target, a.edge.inter_zone) <
                         std::make_tuple(b.edge.target, b.edge.inter_zone);
                });
      for (const Edge& e : node_edges) {
        f.edges.push_back(e.edge);
        if (i == 0 && with_paths) {
          std::vector<uint32_t>& runs = out.cached_paths.path_runs;
          for (uint32_t r = cached_paths.path_begin[e.old];
               r < cached_paths.path_begin[e.old + 1]; ++r) {
            runs.push_back(cached_paths.path_runs[r]);
          }
          out.cached_paths.path_begin.push_back(
              static_cast<uint32_t>(runs.size()));
        }
      }
      f.edge_begin.push_back(static_cast<uint32_t>(f.edges.size()));
    }
  }
  return out;
}

bool SharedAbstraction::NeedsCompaction() const {
  // Summed over levels, so that a small top level (whose few zones are
  // rehomed by most updates) does not force frequent O(world) layouts.
  int64_t nodes = 0, live_nodes = 0, edges = 0, live_edges = 0;
  for (const SharedLevel& level : levels) {
    nodes += level.node_count();
    live_nodes += level.live_nodes;
    edges += static_cast<int64_t>(level.edges.size());
    live_edges += level.live_edges;
  }
  return nodes > 2 * live_nodes + 1024 || edges > 2 * live_edges + 8192;
}

size_t SharedAbstraction::MemoryUsage() const {
  size_t bytes = sizeof(*this) + beacons.MemoryUsage() +
                 cached_paths.path_begin.MemoryUsage() +
                 cached_paths.path_runs.MemoryUsage();
  for (const SharedLevel& level : levels) bytes += level.MemoryUsage();
  return bytes;
}

size_t SharedAbstraction::OwnedBytes() const {
  size_t bytes = beacons.OwnedBytes() + cached_paths.path_begin.OwnedBytes() +
                 cached_paths.path_runs.OwnedBytes();
  for (const SharedLevel& level : levels) bytes += level.OwnedBytes();
  return bytes;
}

size_t SharedAbstraction::MappedBytes() const {
  size_t bytes = beacons.MappedBytes() + cached_paths.path_begin.MappedBytes() +
                 cached_paths.path_runs.MappedBytes();
  for (const SharedLevel& level : levels) bytes += level.MappedBytes();
  return bytes;
}

}  // namespace zonepath
