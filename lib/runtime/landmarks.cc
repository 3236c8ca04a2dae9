#include "landmarks.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <utility>

namespace zonepath::runtime_internal {
namespace {

// Distances on level k from `source` into column `column` of `out`
// (node-major rows of `stride` values).
void Dijkstra(const LevelGraph& graph, int k, uint32_t nodes, uint32_t source,
              int stride, int column, std::vector<double>* out,
              std::vector<std::pair<double, uint32_t>>* heap) {
  const auto at = [&](uint32_t n) -> double& {
    return (*out)[static_cast<size_t>(n) * stride + column];
  };
  for (uint32_t n = 0; n < nodes; ++n) at(n) = kInf;
  heap->clear();
  at(source) = 0;
  heap->push_back({0.0, source});
  const auto later = std::greater<std::pair<double, uint32_t>>();
  while (!heap->empty()) {
    std::pop_heap(heap->begin(), heap->end(), later);
    const auto [d, u] = heap->back();
    heap->pop_back();
    if (d > at(u)) continue;
    graph.ForEachEdge(k, u, [&](uint32_t v, float cost, bool /*intra*/) {
      if (v >= nodes) return;  // a loaded world's targets are checked
      const double nd = d + cost;
      if (nd < at(v)) {
        at(v) = nd;
        heap->push_back({nd, v});
        std::push_heap(heap->begin(), heap->end(), later);
      }
    });
  }
}

}  // namespace

std::shared_ptr<const LevelLandmarks> LevelLandmarks::Build(
    const LevelGraph& graph, int k, int count) {
  const SharedLevel& level = graph.level(k);
  const uint32_t nodes = static_cast<uint32_t>(level.node_beacon.size());
  if (nodes == 0 || count <= 0 ||
      level.live_edges > static_cast<int64_t>(kMaxEdges)) {
    return nullptr;
  }
  auto table = std::make_shared<LevelLandmarks>();
  table->nodes_ = nodes;
  std::vector<double> dist(static_cast<size_t>(nodes) * count, kInf);
  std::vector<std::pair<double, uint32_t>> heap;
  // Farthest first: each landmark is the node farthest from those chosen
  // (nodes no landmark reaches first, so every component gets one), the
  // first the node farthest from node 0.
  std::vector<double> from_zero(nodes);
  Dijkstra(graph, k, nodes, 0, 1, 0, &from_zero, &heap);
  uint32_t next = 0;
  for (uint32_t n = 0; n < nodes; ++n) {
    if (from_zero[n] < kInf && from_zero[n] > from_zero[next]) next = n;
  }
  std::vector<double> nearest(nodes, kInf);
  int chosen = 0;
  while (chosen < count) {
    Dijkstra(graph, k, nodes, next, count, chosen, &dist, &heap);
    ++chosen;
    double best = 0;
    for (uint32_t n = 0; n < nodes; ++n) {
      nearest[n] = std::min(nearest[n],
                            dist[static_cast<size_t>(n) * count + chosen - 1]);
      const double score = nearest[n] == kInf ? 1e300 : nearest[n];
      if (score > best) {
        best = score;
        next = n;
      }
    }
    if (best <= 0) break;  // every node is a landmark already
  }
  table->count_ = chosen;
  table->dist_.resize(static_cast<size_t>(nodes) * chosen);
  for (uint32_t n = 0; n < nodes; ++n) {
    for (int l = 0; l < chosen; ++l) {
      table->dist_[static_cast<size_t>(n) * chosen + l] =
          dist[static_cast<size_t>(n) * count + l];
    }
  }
  return table;
}

void LandmarkBound::SetGoal(const LevelLandmarks& table,
                            const std::vector<Link>& goal) {
  table_ = &table;
  const int count = table.count();
  low_.assign(count, 0);
  high_.assign(count, 0);
  usable_.assign(count, 0);
  for (int l = 0; l < count; ++l) {
    double low = kInf, high = -kInf;
    bool usable = !goal.empty();
    for (const Link& g : goal) {
      const double d = g.node < table.nodes() ? table.Row(g.node)[l] : kInf;
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

double LandmarkBound::Bound(uint32_t n) const {
  if (table_ == nullptr || n >= table_->nodes()) return 0;
  const double* row = table_->Row(n);
  double bound = 0;
  for (int l = 0; l < table_->count(); ++l) {
    if (!usable_[l] || row[l] == kInf) continue;
    bound = std::max({bound, low_[l] - row[l], row[l] - high_[l]});
  }
  // Distances are sums of the same float edge costs the search adds, in
  // another order: allow for the rounding.
  return bound * (1 - 1e-9);
}

}  // namespace zonepath::runtime_internal
