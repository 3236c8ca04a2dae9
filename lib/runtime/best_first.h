// BestFirst: the A* / Dijkstra loop every abstract search of the planner
// runs (connection upward, the top-level search, refinement downward), over
// a NodeStateMap so its memory follows the nodes it touches.
//
//   NodeStateMap state(1 << 16);
//   std::vector<OpenEntry> open;
//   state.NewSearch();
//   Seed(state, open, source, /*g=*/0, /*h=*/H(source), &stats);
//   BestFirstResult r = BestFirst(
//       state, open,
//       [&](uint32_t u, auto&& relax, bool skips_intra) {
//         relax(v, cost, H(v), intra); },
//       [&](const NodeStateMap::Record& r) { return r.node == goal; },
//       /*bound=*/kInf, &stats, &goal_record, [](uint32_t) {});
#ifndef ZONEPATH_RUNTIME_BEST_FIRST_H_
#define ZONEPATH_RUNTIME_BEST_FIRST_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "node_state_map.h"
#include "zonepath/search/search_common.h"
#include "zonepath/search/search_stats.h"

namespace zonepath::runtime_internal {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

struct OpenEntry {
  double f;
  double g;
  uint32_t record;
};

// The open list is a 4-ary heap in OpenFirst's order (lowest f first, ties
// to the larger g): half a binary heap's depth, and a node's children lie
// side by side (measured: -3.3 % instructions of an unsmoothed query
// against std::push_heap / pop_heap; docs/measurements_history.md, "Cheaper
// bookkeeping around the searches"). Entries equal in f and g may leave in
// another order than a binary heap's, so ties between equally cheap ways may
// fall differently.

// Adds e to the heap.
inline void PushOpen(std::vector<OpenEntry>& open, const OpenEntry& e) {
  open.push_back(e);
  size_t i = open.size() - 1;
  while (i > 0) {
    const size_t parent = (i - 1) / 4;
    if (!OpenFirst(e, open[parent])) break;
    open[i] = open[parent];
    i = parent;
  }
  open[i] = e;
}
// Removes and returns the first entry (open must not be empty).
inline OpenEntry PopOpen(std::vector<OpenEntry>& open) {
  const OpenEntry top = open.front();
  const OpenEntry last = open.back();
  open.pop_back();
  const size_t n = open.size();
  if (n == 0) return top;
  size_t i = 0;
  while (true) {
    const size_t first = 4 * i + 1;
    if (first >= n) break;
    size_t best = first;
    const size_t end = first + 4 < n ? first + 4 : n;
    for (size_t k = first + 1; k < end; ++k) {
      if (OpenFirst(open[k], open[best])) best = k;
    }
    if (!OpenFirst(open[best], last)) break;
    open[i] = open[best];
    i = best;
  }
  open[i] = last;
  return top;
}

enum class BestFirstResult {
  kGoal,       // is_goal(u) held for an expanded u (its record: goal_record)
  kExhausted,  // the open list emptied or the best f reached the bound
  kFull,       // the state map hit max_nodes
};

// Adds `node` as a source with cost g (keeps the cheaper of two seeds).
// False when the state map is full.
inline bool Seed(NodeStateMap& state, std::vector<OpenEntry>& open,
                 uint32_t node, double g, double h, SearchStats* stats) {
  const uint32_t r = state.Touch(node);
  if (r == NodeStateMap::kNone) return false;
  if (g >= state[r].g) return true;
  state[r].g = g;
  state[r].parent = NodeStateMap::kNone;
  state[r].via_intra = 0;
  PushOpen(open, {g + h, g, r});
  ++stats->heap_pushes;
  return true;
}

// h(v) as given to relax: a value, or a callable that computes it.
template <typename H>
double HeuristicValue(H&& h) {
  if constexpr (std::is_invocable_v<H>) {
    return h();
  } else {
    return static_cast<double>(h);
  }
}

// Runs the search from the seeds already in `open`. neighbors(u, relax,
// skips_intra) calls relax(v, cost, h(v), intra) for each successor of
// node u (skips_intra: relax ignores u's intra-zone edges, see below, so
// the caller may skip them before any work; h(v) a
// value, or a callable returning it, evaluated only when needed; intra: an
// intra-zone edge of the searched level); the search stops
// when is_goal(record) holds for an expanded node (kGoal, its record in
// *goal_record), or when the best f reaches `bound` or the open list empties
// (kExhausted). on_expand(node) is called for each expansion (tracing).
//
// A node whose g came over an intra-zone edge does not relax its own
// intra-zone edges. A zone's intra-zone edges join every pair of its nodes
// that meet inside it, at their shortest distance there (the builder's
// cliques), so they obey the triangle inequality: if u reached w at
// g(u) + d(u, w), then u's edge to any x of the zone already offered
// g(u) + d(u, x) <= g(w) + d(w, x), and u was expanded first. On game maps
// most expansions enter a zone this way, and a zone's clique is most of a
// node's edges (27 of 30 on generated rooms' upper levels). Stored costs
// are floats, so the inequality may fail by a rounding (~1e-7 relative): a
// cost that much above the exact one, never an illegal path. Loading
// refuses a world whose zone components are not cliques (world_file.cc,
// CheckZones), so every node the full search reaches is still reached.
template <typename Neighbors, typename IsGoal, typename OnExpand>
BestFirstResult BestFirst(NodeStateMap& state, std::vector<OpenEntry>& open,
                          Neighbors&& neighbors, IsGoal&& is_goal, double bound,
                          SearchStats* stats, uint32_t* goal_record,
                          OnExpand&& on_expand) {
  bool full = false;
  while (!open.empty()) {
    const OpenEntry top = PopOpen(open);
    ++stats->heap_pops;
    NodeStateMap::Record& rec = state[top.record];
    if (rec.closed || top.g > rec.g) continue;
    if (top.f >= bound) break;
    rec.closed = 1;
    ++stats->expanded;
    const uint32_t u = rec.node;
    on_expand(u);
    if (is_goal(rec)) {
      *goal_record = top.record;
      return BestFirstResult::kGoal;
    }
    const double gu = top.g;
    const uint32_t ru = top.record;
    const bool entered_by_intra = rec.via_intra != 0;
    auto relax = [&](uint32_t v, double cost, auto&& h_of_v, bool intra) {
      if (intra && entered_by_intra) return;
      // h_of_v is h(v) or a callable giving it. A callable is evaluated
      // only for a successor that improves (and first, for the bound, when
      // the bound is finite), so a dense graph does not pay for the
      // estimates of the many edges that lead nowhere new.
      const double nv = gu + cost;
      if (bound < kInf && nv + HeuristicValue(h_of_v) >= bound) return;
      const uint32_t rv = state.Touch(v);
      if (rv == NodeStateMap::kNone) {
        full = true;
        return;
      }
      NodeStateMap::Record& next = state[rv];
      if (nv >= next.g) return;
      const double f = nv + HeuristicValue(h_of_v);
      next.g = nv;
      next.parent = ru;
      next.closed = 0;
      next.via_intra = intra ? 1 : 0;
      PushOpen(open, {f, nv, rv});
      ++stats->generated;
      ++stats->heap_pushes;
    };
    neighbors(u, relax, entered_by_intra);
    if (full) return BestFirstResult::kFull;
  }
  return BestFirstResult::kExhausted;
}

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_BEST_FIRST_H_
