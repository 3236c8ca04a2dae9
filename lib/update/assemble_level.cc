// CSR assembly and zone-local components for one level.
#include <algorithm>
#include <numeric>

#include "zonepath/update/zone_kernels.h"

namespace zonepath::update_internal {

std::vector<uint32_t> AssembleLevel(std::vector<PendingEdge> edges,
                                    AbstractLevel* level) {
  return AssembleLevel(
      [&edges](absl::FunctionRef<void(const PendingEdge&)> fn) {
        for (const PendingEdge& e : edges) fn(e);
      },
      edges.size(), level);
}

std::vector<uint32_t> AssembleLevel(PendingEdgeVisitor for_each_edge,
                                    size_t edge_count, AbstractLevel* level) {
  const uint32_t n = level->node_count();
  // Counting sort by source, then each node's few edges by target: linear,
  // where one global sort was the slowest step of an incremental update.
  level->edge_begin.assign(n + 1, 0);
  for_each_edge(
      [&](const PendingEdge& e) { ++level->edge_begin[e.source + 1]; });
  std::partial_sum(level->edge_begin.begin(), level->edge_begin.end(),
                   level->edge_begin.begin());
  // Place each edge in its source's range, then order each (short) range by
  // target: straight into the level's arrays, no second copy of the edges.
  level->edges.resize(edge_count);
  std::vector<uint32_t> paths(edge_count);
  {
    std::vector<uint32_t> next(level->edge_begin.begin(),
                               level->edge_begin.end() - 1);
    for_each_edge([&](const PendingEdge& e) {
      const uint32_t at = next[e.source]++;
      level->edges[at] = e.edge;
      paths[at] = e.path;
    });
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
  // Zone-local components: union the endpoints of intra-zone edges, always
  // under the smaller id, so each root is its component's smallest node id
  // (the label, stable across builds).
  std::vector<uint32_t>& parent = level->node_component;
  parent.resize(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for_each_edge([&](const PendingEdge& e) {
    if (e.edge.inter_zone) return;
    const uint32_t a = find(e.source), b = find(e.edge.target);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  });
  for (uint32_t v = 0; v < n; ++v) parent[v] = find(v);
  return paths;
}

}  // namespace zonepath::update_internal
