// Levels k >= 2: nodes are the representatives of the level-(k-1) crossings
// that cross a level-k border (see CrossingGroup); intra-zone edges are shortest paths on level k-1 restricted to
// the level-k zone, found with Boost.Graph's Dijkstra (offline only, where a
// per-zone graph object costs nothing that matters).
#include <algorithm>
#include <limits>

#include "boost/graph/adjacency_list.hpp"
#include "boost/graph/dijkstra_shortest_paths.hpp"
#include "build_internal.h"

namespace zonepath::offline_internal {
namespace {

using ZoneGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS,
                          boost::no_property,
                          boost::property<boost::edge_weight_t, double>>;

}  // namespace

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
  // CrossingGroup; the middle one of each group is the representative.
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
  std::sort(candidates.begin(), candidates.end(),
            [](const Candidate& x, const Candidate& y) {
              return x.group < y.group;
            });
  std::vector<uint8_t> is_node(beacons.size(), 0);
  for (size_t i = 0; i < candidates.size();) {
    size_t j = i;
    while (j < candidates.size() &&
           candidates[j].group.SameGroup(candidates[i].group)) {
      ++j;
    }
    const InterEdge& rep = candidates[i + (j - i - 1) / 2].edge;
    is_node[rep.a] = is_node[rep.b] = 1;
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

void SearchUpperZone(const std::vector<uint32_t>& members,
                     const BelowEdges& edges_of,
                     const std::vector<uint32_t>& sources, uint32_t first_id,
                     std::vector<uint32_t>* local,
                     std::vector<PendingEdge>* out) {
  if (sources.size() < 2) return;
  // Local graph over the level k-1 nodes inside the zone.
  for (uint32_t i = 0; i < members.size(); ++i) (*local)[members[i]] = i;
  ZoneGraph g(members.size());
  for (uint32_t i = 0; i < members.size(); ++i) {
    edges_of(members[i], [&](uint32_t target, float cost) {
      if ((*local)[target] != kNoLocal) {
        boost::add_edge(i, (*local)[target], cost, g);
      }
    });
  }
  std::vector<double> dist(members.size());
  const uint32_t count = static_cast<uint32_t>(sources.size());
  for (uint32_t a = 0; a < count; ++a) {
    boost::dijkstra_shortest_paths(
        g, (*local)[sources[a]],
        boost::distance_map(boost::make_iterator_property_map(
            dist.begin(), boost::get(boost::vertex_index, g))));
    for (uint32_t b = 0; b < count; ++b) {
      if (b == a) continue;
      const double d = dist[(*local)[sources[b]]];
      if (d < std::numeric_limits<double>::max()) {
        out->push_back(
            {first_id + a, {first_id + b, 0, static_cast<float>(d)}});
      }
    }
  }
  for (uint32_t m : members) (*local)[m] = kNoLocal;
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
  const BelowEdges edges_of = [&](uint32_t u, const AddBelowEdge& add) {
    for (uint32_t e = below.edge_begin[u]; e < below.edge_begin[u + 1]; ++e) {
      add(below.edges[e].target, below.edges[e].cost);
    }
  };

  const int64_t zones = level->zone_count();
  std::vector<std::vector<PendingEdge>> results(zones);
  std::atomic<int64_t> done{0};
  // Per-thread map from level k-1 node to its index in the zone's local
  // graph; entries are reset after each zone, so no per-zone O(nodes) work.
  std::vector<std::vector<uint32_t>> local_scratch(threads);
  std::vector<std::vector<uint32_t>> sources(threads);
  ParallelForZones(zones, threads, [&](int t, int64_t z) {
    const uint32_t begin = level->zone_node_begin[z];
    const uint32_t end = level->zone_node_begin[z + 1];
    if (end - begin >= 2) {
      if (local_scratch[t].empty()) {
        local_scratch[t].assign(below.node_count(), kNoLocal);
      }
      sources[t].clear();
      for (uint32_t a = begin; a < end; ++a) {
        sources[t].push_back(below_node_of_beacon[nodes[a]]);
      }
      SearchUpperZone(below_nodes_in_zone[z], edges_of, sources[t], begin,
                      &local_scratch[t], &results[z]);
    }
    if (progress) progress(++done, zones);
  });

  std::vector<uint32_t> node_of_beacon(beacons.size(), kNoLocal);
  for (uint32_t i = 0; i < n; ++i) node_of_beacon[nodes[i]] = i;
  size_t intra = 0;
  for (const auto& r : results) intra += r.size();
  std::vector<PendingEdge> edges;
  edges.reserve(intra + 2 * crossings.size());
  for (auto& r : results) {
    edges.insert(edges.end(), r.begin(), r.end());
    r.clear();
    r.shrink_to_fit();
  }
  for (const InterEdge& e : crossings) {
    const float cost = static_cast<float>(e.cost);
    edges.push_back({node_of_beacon[e.a], {node_of_beacon[e.b], 1, cost}});
    edges.push_back({node_of_beacon[e.b], {node_of_beacon[e.a], 1, cost}});
  }
  AssembleLevel(std::move(edges), level);
}

}  // namespace zonepath::offline_internal
