#include "landmarks.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace zonepath::runtime_internal {

void LevelLandmarks::Dijkstra(const LevelGraph& graph, int k, uint32_t source,
                              double* out) const {
  // out[n * count_] strided: one landmark's column.
  const auto at = [&](uint32_t n) -> double& {
    return out[static_cast<size_t>(n) * count_];
  };
  for (uint32_t n = 0; n < nodes_; ++n) at(n) = kInf;
  heap_.clear();
  at(source) = 0;
  heap_.push_back({0.0, source});
  const auto later = std::greater<std::pair<double, uint32_t>>();
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const auto [d, u] = heap_.back();
    heap_.pop_back();
    if (d > at(u)) continue;
    graph.ForEachEdge(k, u, [&](uint32_t v, float cost, bool /*intra*/) {
      if (v >= nodes_) return;  // a loaded world's targets are checked
      const double nd = d + cost;
      if (nd < at(v)) {
        at(v) = nd;
        heap_.push_back({nd, v});
        std::push_heap(heap_.begin(), heap_.end(), later);
      }
    });
  }
}

void LevelLandmarks::Build(const LevelGraph& graph, int k, int count) {
  const SharedLevel& level = graph.level(k);
  nodes_ = static_cast<uint32_t>(level.node_beacon.size());
  count_ = 0;
  if (nodes_ == 0 || count <= 0) return;
  count_ = count;
  dist_.assign(static_cast<size_t>(nodes_) * count_, kInf);
  // Farthest first: each landmark is the node farthest from those chosen
  // (nodes no landmark reaches first, so every component gets one), the
  // first the node farthest from node 0.
  std::vector<double> nearest(nodes_, kInf);
  std::vector<double> scratch(static_cast<size_t>(nodes_) * count_);
  Dijkstra(graph, k, 0, scratch.data());
  uint32_t next = 0;
  for (uint32_t n = 0; n < nodes_; ++n) {
    if (scratch[static_cast<size_t>(n) * count_] < kInf &&
        scratch[static_cast<size_t>(n) * count_] >
            scratch[static_cast<size_t>(next) * count_]) {
      next = n;
    }
  }
  int chosen = 0;
  for (; chosen < count; ++chosen) {
    Dijkstra(graph, k, next, dist_.data() + chosen);
    double best = -1;
    uint32_t far = next;
    for (uint32_t n = 0; n < nodes_; ++n) {
      nearest[n] =
          std::min(nearest[n], dist_[static_cast<size_t>(n) * count_ + chosen]);
      const double score = nearest[n] == kInf ? 1e300 : nearest[n];
      if (score > best) {
        best = score;
        far = n;
      }
    }
    if (best <= 0) {  // every node is a landmark already
      ++chosen;
      break;
    }
    next = far;
  }
  if (chosen < count) {  // fewer nodes than landmarks: repack the rows
    for (uint32_t n = 0; n < nodes_; ++n) {
      for (int l = 0; l < chosen; ++l) {
        dist_[static_cast<size_t>(n) * chosen + l] =
            dist_[static_cast<size_t>(n) * count_ + l];
      }
    }
    count_ = chosen;
    dist_.resize(static_cast<size_t>(nodes_) * count_);
  }
  low_.assign(count_, 0);
  high_.assign(count_, 0);
  usable_.assign(count_, 0);
}

void LevelLandmarks::SetGoal(const std::vector<Link>& goal_links) {
  for (int l = 0; l < count_; ++l) {
    double low = kInf, high = -kInf;
    bool usable = !goal_links.empty();
    for (const Link& g : goal_links) {
      const double d = g.node < nodes_
                           ? dist_[static_cast<size_t>(g.node) * count_ + l]
                           : kInf;
      if (d == kInf) {
        usable = false;
        break;
      }
      low = std::min(low, d + g.cost);
      high = std::max(high, d - g.cost);
    }
    usable_[l] = usable ? 1 : 0;
    low_[l] = low;
    high_[l] = high;
  }
}

double LevelLandmarks::Bound(uint32_t n) const {
  if (n >= nodes_) return 0;
  const double* row = &dist_[static_cast<size_t>(n) * count_];
  double bound = 0;
  for (int l = 0; l < count_; ++l) {
    if (!usable_[l] || row[l] == kInf) continue;
    bound = std::max({bound, low_[l] - row[l], row[l] - high_[l]});
  }
  // Distances are sums of the same float edge costs the search adds, in
  // another order: allow for the rounding.
  return bound * (1 - 1e-9);
}

size_t LevelLandmarks::MemoryUsage() const {
  return sizeof(*this) + dist_.capacity() * sizeof(double) +
         (low_.capacity() + high_.capacity()) * sizeof(double) +
         usable_.capacity() + heap_.capacity() * sizeof(heap_[0]);
}

}  // namespace zonepath::runtime_internal
