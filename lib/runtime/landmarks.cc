#include "landmarks.h"

#include <algorithm>
#include <utility>

#include "level_dijkstra.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace zonepath::runtime_internal {

std::shared_ptr<const LevelLandmarks> LevelLandmarks::Build(
    const LevelGraph& graph, int k, int count) {
  const SharedLevel& level = graph.level(k);
  const uint32_t nodes = static_cast<uint32_t>(level.node_beacon.size());
  if (nodes == 0 || count <= 0 || nodes > kMaxEdges ||
      level.live_edges > static_cast<int64_t>(kMaxEdges)) {
    return nullptr;
  }
  auto table = std::make_shared<LevelLandmarks>();
  table->nodes_ = nodes;
  // Live nodes only (a world made by ApplyChanges keeps dead ids).
  std::vector<uint8_t> live(nodes, 0);
  uint32_t live_count = 0;
  level.ForEachNode([&](uint32_t v) {
    if (v < nodes && !live[v]) {
      live[v] = 1;
      ++live_count;
    }
  });
  if (live_count == 0) return nullptr;
  std::vector<double> dist(static_cast<size_t>(nodes) * count, kInf);
  LevelDijkstraScratch scratch;
  scratch.Prepare(graph, k, nodes);
  // The landmarks go to one large component: start from a live node whose
  // component holds at least a tenth of the live nodes (a few tries), take
  // the node farthest from it, then each next landmark farthest from those
  // chosen, within that component (queries elsewhere keep the octile
  // bound).
  std::vector<double> from(nodes);
  uint32_t start = 0, tries = 0;
  for (uint32_t v = 0; v < nodes && tries < 8; ++v) {
    if (!live[v] || (tries > 0 && from[v] < kInf)) continue;
    LevelDijkstra(v, 1, 0, &from, &scratch);
    ++tries;
    uint32_t reached = 0;
    for (uint32_t n = 0; n < nodes; ++n) reached += live[n] && from[n] < kInf;
    start = v;
    if (10 * static_cast<uint64_t>(reached) >= live_count) break;
  }
  uint32_t next = start;  // `from` holds the distances from `start`
  for (uint32_t n = 0; n < nodes; ++n) {
    if (live[n] && from[n] < kInf && from[n] > from[next]) next = n;
  }
  std::vector<double> nearest(nodes, kInf);
  int chosen = 0;
  while (chosen < count) {
    LevelDijkstra(next, count, chosen, &dist, &scratch);
    ++chosen;
    double best = 0;
    for (uint32_t n = 0; n < nodes; ++n) {
      nearest[n] = std::min(nearest[n],
                            dist[static_cast<size_t>(n) * count + chosen - 1]);
      if (live[n] && nearest[n] < kInf && nearest[n] > best) {
        best = nearest[n];
        next = n;
      }
    }
    if (best <= 0) break;  // every node of the component is a landmark
  }
  table->count_ = chosen;
  if (chosen == count) {
    table->dist_ = std::move(dist);
    return table;
  }
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
                            absl::Span<const Link> goal) {
  table_ = &table;
  const int count = table.count();
  low_.assign(count, -kInf);
  high_.assign(count, kInf);
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
    if (!usable) continue;
    low_[l] = low;
    high_[l] = high;
  }
}

double LandmarkBound::Bound(uint32_t n) const {
  if (table_ == nullptr || n >= table_->nodes()) return 0;
  const double* row = table_->Row(n);
  const int count = table_->count();
  // Per landmark max(D_L - d(L, n), d(L, n) - E_L), or 0 where n is
  // unreachable from L (d = +inf: its terms would be -inf and +inf, or NaN
  // = inf - inf for an unusable L, so the lane is masked to 0 before the
  // max); an unusable L (SetGoal: D_L = -inf, E_L = +inf) gives -inf. The
  // same value as testing each landmark, since max is exact.
  int l = 0;
  double bound = 0;
#if defined(__SSE2__)
  const __m128d inf = _mm_set1_pd(kInf);
  __m128d best = _mm_setzero_pd();
  for (; l + 2 <= count; l += 2) {
    const __m128d d = _mm_loadu_pd(row + l);
    const __m128d terms =
        _mm_max_pd(_mm_sub_pd(_mm_loadu_pd(low_.data() + l), d),
                   _mm_sub_pd(d, _mm_loadu_pd(high_.data() + l)));
    best = _mm_max_pd(best, _mm_and_pd(_mm_cmpneq_pd(d, inf), terms));
  }
  bound =
      std::max(_mm_cvtsd_f64(best), _mm_cvtsd_f64(_mm_unpackhi_pd(best, best)));
#endif
  for (; l < count; ++l) {
    if (row[l] == kInf) continue;
    bound = std::max({bound, low_[l] - row[l], row[l] - high_[l]});
  }
  // The two directions of an upper-level edge come from two searches, each
  // rounded to a float, so they may differ by an ulp (~6e-8 relative):
  // allow for it.
  return bound * (1 - 1e-6);
}

}  // namespace zonepath::runtime_internal
