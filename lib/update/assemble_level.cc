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

LevelWriter::LevelWriter(AbstractLevel* level,
                         const std::vector<InterEdge>& crossings,
                         absl::FunctionRef<uint32_t(uint32_t)> node_of,
                         CachedPaths* cached)
    : level_(level), cached_(cached) {
  const uint32_t n = level->node_count();
  crossing_begin_.assign(n + 1, 0);
  for (const InterEdge& e : crossings) {
    ++crossing_begin_[node_of(e.a) + 1];
    ++crossing_begin_[node_of(e.b) + 1];
  }
  std::partial_sum(crossing_begin_.begin(), crossing_begin_.end(),
                   crossing_begin_.begin());
  crossing_edges_.resize(crossing_begin_[n]);
  {
    std::vector<uint32_t> next(crossing_begin_.begin(),
                               crossing_begin_.end() - 1);
    for (const InterEdge& e : crossings) {
      const float cost = static_cast<float>(e.cost);
      const uint32_t a = node_of(e.a), b = node_of(e.b);
      crossing_edges_[next[a]++] = {b, 1, cost};
      crossing_edges_[next[b]++] = {a, 1, cost};
    }
  }
  uint64_t bound = crossing_edges_.size();
  for (uint32_t z = 0; z < level->zone_count(); ++z) {
    const uint64_t k =
        level->zone_node_begin[z + 1] - level->zone_node_begin[z];
    bound += k * (k == 0 ? 0 : k - 1);
  }
  level->edges.clear();
  level->edges.reserve(bound);
  level->edge_begin.assign(n + 1, 0);
  level->node_component.resize(n);
  if (cached_ != nullptr) {
    cached_->path_begin.assign(1, 0);
    cached_->path_runs.clear();
  }
}

void LevelWriter::WriteZone(int64_t z, std::vector<PendingEdge>* intra,
                            const std::vector<std::vector<uint32_t>>* paths) {
  const uint32_t begin = level_->zone_node_begin[z];
  const uint32_t end = level_->zone_node_begin[z + 1];
  std::sort(intra->begin(), intra->end(),
            [](const PendingEdge& a, const PendingEdge& b) {
              return a.source != b.source ? a.source < b.source
                                          : a.edge.target < b.edge.target;
            });
  // Zone-local components: union under the smaller id, so each root is
  // its component's smallest node (AssembleLevel's labels).
  parent_.resize(end - begin);
  std::iota(parent_.begin(), parent_.end(), 0);
  auto find = [&](uint32_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  };
  size_t at = 0;
  for (uint32_t u = begin; u < end; ++u) {
    node_edges_.clear();
    for (; at < intra->size() && (*intra)[at].source == u; ++at) {
      const PendingEdge& e = (*intra)[at];
      node_edges_.push_back({e.edge, e.path});
      const uint32_t a = find(u - begin), b = find(e.edge.target - begin);
      if (a != b) parent_[std::max(a, b)] = std::min(a, b);
    }
    for (uint32_t k = crossing_begin_[u]; k < crossing_begin_[u + 1]; ++k) {
      node_edges_.push_back({crossing_edges_[k], PendingEdge::kNoPath});
    }
    std::sort(node_edges_.begin(), node_edges_.end(),
              [](const Out& a, const Out& b) {
                if (a.edge.target != b.edge.target) {
                  return a.edge.target < b.edge.target;
                }
                return a.edge.inter_zone < b.edge.inter_zone;
              });
    for (const Out& o : node_edges_) {
      level_->edges.push_back(o.edge);
      if (cached_ == nullptr) continue;
      if (o.path != PendingEdge::kNoPath) {
        const std::vector<uint32_t>& runs = (*paths)[o.path];
        cached_->path_runs.insert(cached_->path_runs.end(), runs.begin(),
                                  runs.end());
      }
      cached_->path_begin.push_back(
          static_cast<uint32_t>(cached_->path_runs.size()));
    }
    level_->edge_begin[u + 1] = static_cast<uint32_t>(level_->edges.size());
  }
  for (uint32_t u = begin; u < end; ++u) {
    level_->node_component[u] = begin + find(u - begin);
  }
  intra->clear();
  intra->shrink_to_fit();
}

}  // namespace zonepath::update_internal
