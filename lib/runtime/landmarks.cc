#include "landmarks.h"

#include <algorithm>
#include <cmath>
#include <limits>
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
  // Each landmark's distances are worked out in doubles (one column, the
  // Dijkstra's) and kept as floats (half the memory, four lanes a vector
  // in Bound); the largest finite one bounds Bound's rounding (SetGoal).
  std::vector<double> nearest(nodes, kInf);
  std::vector<double> column(nodes);
  table->dist_.assign(static_cast<size_t>(nodes) * count, 0.0f);
  int chosen = 0;
  while (chosen < count) {
    LevelDijkstra(next, 1, 0, &column, &scratch);
    double best = 0;
    for (uint32_t n = 0; n < nodes; ++n) {
      const double d = column[n];
      table->dist_[static_cast<size_t>(n) * count + chosen] =
          static_cast<float>(d);
      if (d < kInf) table->max_distance_ = std::max(table->max_distance_, d);
      nearest[n] = std::min(nearest[n], d);
      if (live[n] && nearest[n] < kInf && nearest[n] > best) {
        best = nearest[n];
        next = n;
      }
    }
    ++chosen;
    if (best <= 0) break;  // every node of the component is a landmark
  }
  table->count_ = chosen;
  if (chosen < count) {  // drop the columns left empty
    for (uint32_t n = 0; n < nodes; ++n) {
      for (int l = 0; l < chosen; ++l) {
        table->dist_[static_cast<size_t>(n) * chosen + l] =
            table->dist_[static_cast<size_t>(n) * count + l];
      }
    }
    table->dist_.resize(static_cast<size_t>(nodes) * chosen);
    table->dist_.shrink_to_fit();
  }
  return table;
}

void LandmarkBound::SetGoal(const LevelLandmarks& table,
                            absl::Span<const Link> goal, int max_landmarks) {
  table_ = &table;
  count_ = std::clamp(max_landmarks, 0, table.count());
  const int count = count_;
  low_.assign(count, -std::numeric_limits<float>::infinity());
  high_.assign(count, std::numeric_limits<float>::infinity());
  double largest = table.max_distance();
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
    low_[l] = static_cast<float>(low);
    high_[l] = static_cast<float>(high);
    largest = std::max({largest, std::abs(low), std::abs(high)});
  }
  // Values beyond kMaxValue (a crafted world's edge costs; a real world's
  // distances stay far below) could overflow a float term to +inf, which
  // bounds nothing: no landmark is read then, and Bound gives 0.
  if (!(largest <= kMaxValue)) {
    count_ = 0;
    slack_ = 0;
    return;
  }
  // Against the exact distances, a term D_L - d(L, n) or d(L, n) - E_L
  // worked out in floats carries three roundings of at most 2^-24 of
  // `largest` (d(L, g) and d(L, n) in the table, D_L or E_L here); the
  // subtraction's own, 2^-24 of a result of at most twice `largest`, is
  // within the (1 - 1e-6) that Bound applies. Four of them leave a margin.
  slack_ = 4 * largest * std::numeric_limits<float>::epsilon() / 2;
}

double LandmarkBound::Bound(uint32_t n) const {
  if (table_ == nullptr || n >= table_->nodes()) return 0;
  const float* row = table_->Row(n);
  const int count = count_;
  // Per landmark max(D_L - d(L, n), d(L, n) - E_L), or 0 where n is
  // unreachable from L (d = +inf: its terms would be -inf and +inf, or NaN
  // = inf - inf for an unusable L, so the lane is masked to 0 before the
  // max); an unusable L (SetGoal: D_L = -inf, E_L = +inf) gives -inf. The
  // same value as testing each landmark, since max is exact.
  int l = 0;
  float bound = 0;
#if defined(__SSE2__)
  const __m128 inf = _mm_set1_ps(std::numeric_limits<float>::infinity());
  __m128 best = _mm_setzero_ps();
  for (; l + 4 <= count; l += 4) {
    const __m128 d = _mm_loadu_ps(row + l);
    const __m128 terms =
        _mm_max_ps(_mm_sub_ps(_mm_loadu_ps(low_.data() + l), d),
                   _mm_sub_ps(d, _mm_loadu_ps(high_.data() + l)));
    best = _mm_max_ps(best, _mm_and_ps(_mm_cmpneq_ps(d, inf), terms));
  }
  float lanes[4];
  _mm_storeu_ps(lanes, best);
  bound = std::max({lanes[0], lanes[1], lanes[2], lanes[3]});
#endif
  for (; l < count; ++l) {
    if (row[l] == std::numeric_limits<float>::infinity()) continue;
    bound = std::max({bound, low_[l] - row[l], row[l] - high_[l]});
  }
  // The two directions of an upper-level edge come from two searches, each
  // rounded to a float, so they may differ by an ulp (~6e-8 relative):
  // allow for it, and for the floats' rounding here (slack_).
  return std::max(0.0, static_cast<double>(bound) * (1 - 1e-6) - slack_);
}

}  // namespace zonepath::runtime_internal
