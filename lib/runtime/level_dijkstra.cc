#include "level_dijkstra.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "best_first.h"

namespace zonepath::runtime_internal {
namespace {

constexpr uint8_t kSettled = 1;
constexpr uint8_t kViaIntra = 2;
// Most buckets in the ring: edges below ~2047 times the cheapest.
constexpr double kMaxRing = 4096;

}  // namespace

void LevelDijkstraScratch::Prepare(const LevelGraph& graph, int k,
                                   uint32_t nodes, bool reversed,
                                   uint32_t empty_per_node) {
  nodes_ = nodes;
  heap_runs_ = 0;
  ring_given_up_ = false;
  // Node u's list: its edges (reversed: the edges into it, each to its
  // source), inter-zone ones first. Counted first, then placed.
  std::vector<uint32_t>& inter = split_;  // inter-zone edges per node
  inter.assign(nodes, 0);
  begin_.assign(size_t{nodes} + 1, 0);
  double cheapest = kInf, dearest = 0;
  for (uint32_t u = 0; u < nodes; ++u) {
    graph.ForEachEdge(k, u, [&](uint32_t v, float cost, bool intra) {
      if (v >= nodes) return;
      const uint32_t owner = reversed ? v : u;
      ++begin_[owner + 1];
      inter[owner] += intra ? 0 : 1;
      cheapest = std::min(cheapest, double{cost});
      dearest = std::max(dearest, double{cost});
    });
  }
  for (uint32_t u = 0; u < nodes; ++u) begin_[u + 1] += begin_[u];
  std::vector<uint32_t> next_inter(nodes), next_intra(nodes);
  for (uint32_t u = 0; u < nodes; ++u) {
    next_inter[u] = begin_[u];
    next_intra[u] = begin_[u] + inter[u];
    split_[u] = next_intra[u];
  }
  target_.resize(begin_[nodes]);
  cost_.resize(begin_[nodes]);
  for (uint32_t u = 0; u < nodes; ++u) {
    graph.ForEachEdge(k, u, [&](uint32_t v, float cost, bool intra) {
      if (v >= nodes) return;
      const uint32_t owner = reversed ? v : u;
      const uint32_t e = intra ? next_intra[owner]++ : next_inter[owner]++;
      target_[e] = reversed ? u : v;
      cost_[e] = cost;
    });
  }
  width_ = 0;
  ring_.clear();
  // Loaded edges are finite and positive; half the cheapest keeps every
  // relaxed node at least one bucket past the one being emptied, whatever
  // the division rounds.
  if (!(cheapest > 0) || !(dearest < kInf)) return;
  const double width = cheapest / 2;
  const double buckets = std::floor(dearest / width) + 2;
  if (!(buckets <= kMaxRing)) return;
  width_ = width;
  ring_.resize(static_cast<size_t>(buckets));
  empty_budget_ = uint64_t{empty_per_node} * nodes + 4 * ring_.size();
}

void LevelDijkstra(uint32_t source, int stride, int column,
                   std::vector<double>* out, LevelDijkstraScratch* scratch) {
  const uint32_t nodes = scratch->nodes_;
  const auto at = [&](uint32_t n) -> double& {
    return (*out)[static_cast<size_t>(n) * stride + column];
  };
  std::vector<uint8_t>& state = scratch->state_;
  const auto reset = [&] {
    for (uint32_t n = 0; n < nodes; ++n) at(n) = kInf;
    state.assign(nodes, 0);
    at(source) = 0;
  };
  const uint32_t* begin = scratch->begin_.data();
  const uint32_t* split = scratch->split_.data();
  const uint32_t* target = scratch->target_.data();
  const float* cost = scratch->cost_.data();
  // Relaxes the edges of settled node u at distance d (its inter-zone ones
  // only when it was reached intra-zone), calling push(v, nd) for each
  // node whose distance drops.
  const auto relax = [&](uint32_t u, double d, auto&& push) {
    const uint32_t end = (state[u] & kViaIntra) ? split[u] : begin[u + 1];
    for (uint32_t e = begin[u]; e < end; ++e) {
      const uint32_t v = target[e];
      const double nd = d + cost[e];
      if (!(nd < at(v))) continue;
      at(v) = nd;
      state[v] = e >= split[u] ? kViaIntra : 0;
      push(v, nd);
    }
  };

  if (scratch->width_ > 0) {
    reset();
    std::vector<std::vector<uint32_t>>& ring = scratch->ring_;
    const double width = scratch->width_;
    const uint64_t size = ring.size();
    for (std::vector<uint32_t>& bucket : ring) bucket.clear();
    ring[0].push_back(source);
    uint64_t pending = 1;
    // Empty buckets passed before the heap takes over (Prepare): an
    // ordinary level's distances span a few buckets per node.
    uint64_t empty_budget = scratch->empty_budget_;
    for (uint64_t b = 0; pending > 0; ++b) {
      std::vector<uint32_t>& bucket = ring[b % size];
      if (bucket.empty()) {
        if (empty_budget-- == 0) break;
        continue;
      }
      while (!bucket.empty()) {
        const uint32_t u = bucket.back();
        bucket.pop_back();
        --pending;
        if (state[u] & kSettled) continue;  // an older, larger entry
        state[u] |= kSettled;
        relax(u, at(u), [&](uint32_t v, double nd) {
          ring[static_cast<uint64_t>(nd / width) % size].push_back(v);
          ++pending;
        });
      }
    }
    if (pending == 0) return;
    // The level's distances are spread too thin for the ring: the heap
    // from now on (this scratch's later Dijkstras too).
    scratch->width_ = 0;
    scratch->ring_given_up_ = true;
  }
  ++scratch->heap_runs_;

  // The heap: one entry per node, lowered in place.
  constexpr uint32_t kNone = ~uint32_t{0};
  reset();
  std::vector<std::pair<double, uint32_t>>& heap = scratch->heap_;
  std::vector<uint32_t>& position = scratch->position_;
  heap.clear();
  position.assign(nodes, kNone);
  // Puts entry e at heap index i, moving it up to its place.
  const auto sift_up = [&](uint32_t i, std::pair<double, uint32_t> e) {
    while (i > 0) {
      const uint32_t parent = (i - 1) / 2;
      if (!(e.first < heap[parent].first)) break;
      heap[i] = heap[parent];
      position[heap[i].second] = i;
      i = parent;
    }
    heap[i] = e;
    position[e.second] = i;
  };
  heap.push_back({0.0, source});
  position[source] = 0;
  while (!heap.empty()) {
    const double d = heap.front().first;
    const uint32_t u = heap.front().second;
    position[u] = kNone;
    // The last entry goes down from the root.
    const std::pair<double, uint32_t> last = heap.back();
    heap.pop_back();
    const uint32_t size = static_cast<uint32_t>(heap.size());
    if (size > 0) {
      uint32_t i = 0;
      for (;;) {
        uint32_t child = 2 * i + 1;
        if (child >= size) break;
        if (child + 1 < size && heap[child + 1].first < heap[child].first) {
          ++child;
        }
        if (!(heap[child].first < last.first)) break;
        heap[i] = heap[child];
        position[heap[i].second] = i;
        i = child;
      }
      heap[i] = last;
      position[last.second] = i;
    }
    relax(u, d, [&](uint32_t v, double nd) {
      if (position[v] == kNone) {
        heap.emplace_back();
        sift_up(static_cast<uint32_t>(heap.size() - 1), {nd, v});
      } else {
        sift_up(position[v], {nd, v});
      }
    });
  }
}

}  // namespace zonepath::runtime_internal
