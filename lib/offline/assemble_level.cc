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
  // Place each edge in its source's range, then order each (short) range by
  // target: straight into the level's arrays, no second copy of the edges.
  level->edges.resize(edges.size());
  std::vector<uint32_t> paths(edges.size());
  {
    std::vector<uint32_t> next(level->edge_begin.begin(),
                               level->edge_begin.end() - 1);
    for (const PendingEdge& e : edges) {
      const uint32_t at = next[e.source]++;
      level->edges[at] = e.edge;
      paths[at] = e.path;
    }
  }
  std::vector<uint32_t> order;
  std::vector<AbstractEdge> edge_scratch;
  std::vector<uint32_t> path_scratch;
  for (uint32_t v = 0; v < n; ++v) {
    const uint32_t begin = level->edge_begin[v], end = level->edge_begin[v + 1];
    auto by_target = [&](uint32_t a, uint32_t b) {
      const AbstractEdge& x = level->edges[a];
      const AbstractEdge& y = level->edges[b];
      if (x.target != y.target) return x.target < y.target;
      return x.inter_zone < y.inter_zone;
    };
    bool sorted = true;
    for (uint32_t i = begin + 1; i < end && sorted; ++i) {
      sorted = !by_target(i, i - 1);
    }
    if (sorted) continue;
    order.resize(end - begin);
    for (uint32_t i = 0; i < end - begin; ++i) order[i] = begin + i;
    std::sort(order.begin(), order.end(), by_target);
    edge_scratch.clear();
    path_scratch.clear();
    for (uint32_t i : order) {
      edge_scratch.push_back(level->edges[i]);
      path_scratch.push_back(paths[i]);
    }
    std::copy(edge_scratch.begin(), edge_scratch.end(),
              level->edges.begin() + begin);
    std::copy(path_scratch.begin(), path_scratch.end(), paths.begin() + begin);
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
