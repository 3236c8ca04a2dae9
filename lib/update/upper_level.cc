// Levels k >= 2: nodes are the representatives of the level-(k-1) crossings
// that cross a level-k border (see CrossingGroup); intra-zone edges are
// shortest paths on level k-1 restricted to the level-k zone, found by a
// hand-written Dijkstra over a local copy of the zone's graph with reusable
// scratch (it runs in runtime updates too, where Boost.Graph's per-call
// graph and O(vertices) setup would not do).
#include <algorithm>
#include <atomic>
#include <functional>
#include <limits>

#include "zonepath/update/zone_kernels.h"

namespace zonepath::update_internal {

void SetUpperLevelNodes(const std::vector<Point>& beacons,
                        const std::vector<InterEdge>& below_crossings,
                        const AbstractLevel& below, AbstractLevel* level,
                        std::vector<InterEdge>* crossings) {
  auto zone_of = [&](uint32_t beacon) {
    return level->ZoneOf(beacons[beacon]).value();
  };
  std::vector<uint32_t> below_node(beacons.size(), kNoLocal);
  for (uint32_t i = 0; i < below.node_count(); ++i) {
    below_node[below.node_beacon[i]] = i;
  }
  // The crossings of level k-1 that cross a level-k border, grouped by
  // CrossingGroup, each group's representatives picked by
  // PickRepresentatives.
  struct Candidate {
    CrossingGroup group;
    InterEdge edge;
  };
  std::vector<Candidate> candidates;
  for (const InterEdge& e : below_crossings) {
    if (zone_of(e.a) == zone_of(e.b)) continue;
    const uint32_t a = below_node[e.a], b = below_node[e.b];
    if (a == kNoLocal || b == kNoLocal) continue;
    candidates.push_back(
        {GroupOf(below, beacons[e.a], beacons[e.b], below.node_component[a],
                 below.node_component[b]),
         e});
  }
  std::sort(
      candidates.begin(), candidates.end(),
      [](const Candidate& x, const Candidate& y) { return x.group < y.group; });
  std::vector<uint8_t> is_node(beacons.size(), 0);
  for (size_t i = 0; i < candidates.size();) {
    size_t j = i;
    while (j < candidates.size() &&
           candidates[j].group.SameGroup(candidates[i].group)) {
      ++j;
    }
    const Representatives reps = PickRepresentatives(
        j - i, [&](size_t k) { return candidates[i + k].edge.cost; });
    for (const size_t k : {reps.middle, reps.cheapest}) {
      const InterEdge& rep = candidates[i + k].edge;
      is_node[rep.a] = is_node[rep.b] = 1;
    }
    i = j;
  }
  std::vector<uint32_t> nodes;
  crossings->clear();
  for (const Candidate& c : candidates) {
    if (is_node[c.edge.a] && is_node[c.edge.b]) crossings->push_back(c.edge);
  }
  for (uint32_t b = 0; b < beacons.size(); ++b) {
    if (is_node[b]) nodes.push_back(b);
  }
  std::stable_sort(nodes.begin(), nodes.end(), [&](uint32_t a, uint32_t b) {
    return zone_of(a) < zone_of(b);
  });
  level->node_beacon = std::move(nodes);
  level->zone_node_begin.assign(level->zone_count() + 1, 0);
  for (uint32_t b : level->node_beacon)
    ++level->zone_node_begin[zone_of(b) + 1];
  for (size_t z = 1; z < level->zone_node_begin.size(); ++z) {
    level->zone_node_begin[z] += level->zone_node_begin[z - 1];
  }
}

void LocalDijkstra(uint32_t source, uint32_t node_count,
                   UpperZoneScratch* scratch,
                   absl::FunctionRef<bool(uint32_t)> done) {
  UpperZoneScratch& s = *scratch;
  const auto later = std::greater<std::pair<double, uint32_t>>();
  s.dist.assign(node_count, std::numeric_limits<double>::infinity());
  s.heap.clear();
  s.dist[source] = 0;
  s.heap.push_back({0.0, source});
  while (!s.heap.empty()) {
    std::pop_heap(s.heap.begin(), s.heap.end(), later);
    const auto [d, u] = s.heap.back();
    s.heap.pop_back();
    if (d > s.dist[u]) continue;  // stale entry
    for (uint32_t e = s.edge_begin[u]; e < s.edge_begin[u + 1]; ++e) {
      const uint32_t v = s.edge_target[e];
      const double nd = d + s.edge_cost[e];
      if (nd < s.dist[v]) {
        s.dist[v] = nd;
        s.heap.push_back({nd, v});
        std::push_heap(s.heap.begin(), s.heap.end(), later);
      }
    }
    if (done(u)) return;
  }
}

void SearchUpperZone(uint32_t member_count, const BelowEdges& edges_of,
                     const std::vector<uint32_t>& sources, uint32_t first_id,
                     UpperZoneScratch* scratch, std::vector<PendingEdge>* out) {
  if (sources.size() < 2) return;
  UpperZoneScratch& s = *scratch;
  // Local CSR: the callback yields each node's edges in order.
  s.edge_begin.assign(member_count + 1, 0);
  s.edge_target.clear();
  s.edge_cost.clear();
  for (uint32_t u = 0; u < member_count; ++u) {
    edges_of(u, [&](uint32_t target, float cost) {
      s.edge_target.push_back(target);
      s.edge_cost.push_back(cost);
    });
    s.edge_begin[u + 1] = static_cast<uint32_t>(s.edge_target.size());
  }
  const uint32_t count = static_cast<uint32_t>(sources.size());
  s.source_index.assign(member_count, 0);
  for (uint32_t b = 0; b < count; ++b) s.source_index[sources[b]] = b + 1;
  for (uint32_t a = 0; a < count; ++a) {
    // Stop once every source is settled: the rest cannot change them.
    uint32_t unsettled = count;
    LocalDijkstra(sources[a], member_count, &s, [&](uint32_t u) {
      if (s.source_index[u] != 0) --unsettled;
      return unsettled == 0;
    });
    for (uint32_t b = 0; b < count; ++b) {
      if (b == a) continue;
      const double d = s.dist[sources[b]];
      if (d < std::numeric_limits<double>::infinity()) {
        out->push_back(
            {first_id + a, {first_id + b, 0, static_cast<float>(d)}});
      }
    }
  }
}

void BuildUpperLevel(int threads, const std::vector<Point>& beacons,
                     const std::vector<InterEdge>& crossings,
                     const AbstractLevel& below, AbstractLevel* level,
                     const std::function<void(int64_t, int64_t)>& progress) {
  auto zone_of = [&](uint32_t beacon) {
    return level->ZoneOf(beacons[beacon]).value();
  };
  const std::vector<uint32_t>& nodes = level->node_beacon;
  const uint32_t n = level->node_count();
  // Level k-1 node of each beacon (every node here is one there too).
  std::vector<uint32_t> below_node_of_beacon(beacons.size(), kNoLocal);
  for (uint32_t i = 0; i < below.node_count(); ++i) {
    below_node_of_beacon[below.node_beacon[i]] = i;
  }
  // Level k-1 nodes grouped by this level's zone.
  std::vector<std::vector<uint32_t>> below_nodes_in_zone(level->zone_count());
  for (uint32_t i = 0; i < below.node_count(); ++i) {
    below_nodes_in_zone[zone_of(below.node_beacon[i])].push_back(i);
  }

  std::vector<uint32_t> node_of_beacon(beacons.size(), kNoLocal);
  for (uint32_t i = 0; i < n; ++i) node_of_beacon[nodes[i]] = i;
  // Written zone by zone as chunks of zones are searched (LevelWriter).
  LevelWriter writer(
      level, crossings, [&](uint32_t beacon) { return node_of_beacon[beacon]; },
      nullptr);
  const int64_t zones = level->zone_count();
  const int64_t chunk = std::max<int64_t>(64, int64_t{threads} * 64);
  std::vector<std::vector<PendingEdge>> results;
  std::atomic<int64_t> done{0};
  // Per-thread map from level k-1 node to its index in the zone's local
  // graph; entries are reset after each zone, so no per-zone O(nodes) work.
  std::vector<std::vector<uint32_t>> local_scratch(threads);
  std::vector<std::vector<uint32_t>> sources(threads);
  std::vector<UpperZoneScratch> search_scratch(threads);
  for (int64_t first = 0; first < zones; first += chunk) {
    const int64_t count = std::min(chunk, zones - first);
    results.assign(count, {});
    ParallelForZones(count, threads, [&](int t, int64_t i) {
      const int64_t z = first + i;
      const uint32_t begin = level->zone_node_begin[z];
      const uint32_t end = level->zone_node_begin[z + 1];
      if (end - begin >= 2) {
        std::vector<uint32_t>& local = local_scratch[t];
        if (local.empty()) local.assign(below.node_count(), kNoLocal);
        const std::vector<uint32_t>& members = below_nodes_in_zone[z];
        for (uint32_t m = 0; m < members.size(); ++m) local[members[m]] = m;
        sources[t].clear();
        for (uint32_t a = begin; a < end; ++a) {
          sources[t].push_back(local[below_node_of_beacon[nodes[a]]]);
        }
        const BelowEdges edges_of = [&](uint32_t m, const AddBelowEdge& add) {
          const uint32_t u = members[m];
          for (uint32_t e = below.edge_begin[u]; e < below.edge_begin[u + 1];
               ++e) {
            const uint32_t target = local[below.edges[e].target];
            if (target != kNoLocal) add(target, below.edges[e].cost);
          }
        };
        SearchUpperZone(static_cast<uint32_t>(members.size()), edges_of,
                        sources[t], begin, &search_scratch[t], &results[i]);
        for (uint32_t m : members) local[m] = kNoLocal;
      }
      if (progress) progress(++done, zones);
    });
    for (int64_t i = 0; i < count; ++i) {
      writer.WriteZone(first + i, &results[i], nullptr);
    }
  }
}

}  // namespace zonepath::update_internal
