// CSR assembly and zone-local components for one level.
#include <algorithm>
#include <numeric>

#include "boost/pending/disjoint_sets.hpp"
#include "build_internal.h"

namespace zonepath::offline_internal {

std::vector<uint32_t> AssembleLevel(std::vector<PendingEdge> edges,
                                    AbstractLevel* level) {
  const uint32_t n = level->node_count();
  // Counting sort by source, then each node's few edges by target: linear,
  // where one global sort was the slowest step of an incremental update.
  level->edge_begin.assign(n + 1, 0);
  for (const PendingEdge& e : edges) ++level->edge_begin[e.source + 1];
  std::partial_sum(level->edge_begin.begin(), level->edge_begin.end(),
                   level->edge_begin.begin());
  std::vector<PendingEdge> sorted(edges.size());
  {
    std::vector<uint32_t> next(level->edge_begin.begin(),
                               level->edge_begin.end() - 1);
    for (const PendingEdge& e : edges) sorted[next[e.source]++] = e;
  }
  auto by_target = [](const PendingEdge& a, const PendingEdge& b) {
    if (a.edge.target != b.edge.target) return a.edge.target < b.edge.target;
    return a.edge.inter_zone < b.edge.inter_zone;
  };
  for (uint32_t v = 0; v < n; ++v) {
    std::sort(sorted.begin() + level->edge_begin[v],
              sorted.begin() + level->edge_begin[v + 1], by_target);
  }
  edges = std::move(sorted);
  level->edges.clear();
  level->edges.reserve(edges.size());
  std::vector<uint32_t> paths;
  paths.reserve(edges.size());
  for (const PendingEdge& e : edges) {
    level->edges.push_back(e.edge);
    paths.push_back(e.path);
  }
  // Zone-local components: union the endpoints of intra-zone edges.
  std::vector<uint32_t> rank(n, 0), parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  boost::disjoint_sets<uint32_t*, uint32_t*> sets(rank.data(), parent.data());
  for (const PendingEdge& e : edges) {
    if (!e.edge.inter_zone) {
      sets.union_set(e.source, e.edge.target);
    }
  }
  // Label = smallest node id of the component (stable across builds).
  level->node_component.assign(n, 0);
  std::vector<uint32_t> smallest(n, n);
  for (uint32_t v = 0; v < n; ++v) {
    uint32_t root = sets.find_set(v);
    smallest[root] = std::min(smallest[root], v);
  }
  for (uint32_t v = 0; v < n; ++v) {
    level->node_component[v] = smallest[sets.find_set(v)];
  }
  return paths;
}

}  // namespace zonepath::offline_internal
