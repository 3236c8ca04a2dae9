// LevelDijkstra: exact distances from one node of an abstract level to
// every other, for the tables planners derive from a world (landmarks.h,
// level_distances.h), which run one per landmark or per node when a
// planner is made.
//
// The queue is a ring of buckets as wide as half the level's cheapest edge
// (Dial's algorithm): a node taken from the lowest bucket cannot be
// improved by another in it, so it is settled in O(1), not O(log n). Where
// the ring would be large (an edge ~2047 times the cheapest or more) or
// the sweep over empty buckets runs long (distances spread thin, as on
// mazes), a binary heap keyed in place does the same, from then on. No
// allocation once the scratch has grown to the level's size.
//
// A node whose distance came over an intra-zone edge does not relax its
// own intra-zone edges, as the planner's searches (best_first.h): a zone's
// intra-zone edges are its cheapest ways inside the zone, so two in a row
// never beat the one between their ends, which the first node relaxed.
// (Up to the edges' float rounding: the distances are then ~1e-7 relative
// above the exact ones at worst, which both tables allow for.)
//
//   LevelDijkstraScratch scratch;
//   scratch.Prepare(graph, k, nodes);     // once per level
//   std::vector<double> dist(nodes);
//   LevelDijkstra(source, /*stride=*/1, /*column=*/0, &dist, &scratch);
#ifndef ZONEPATH_RUNTIME_LEVEL_DIJKSTRA_H_
#define ZONEPATH_RUNTIME_LEVEL_DIJKSTRA_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "level_graph.h"

namespace zonepath::runtime_internal {

class LevelDijkstraScratch {
 public:
  // Copies level k's edges between nodes < `nodes` into the scratch (8
  // bytes an edge, held until the scratch goes: 9.5 MB for level 3 of a
  // 16384^2 rooms world; the Dijkstras then read two flat arrays) and
  // sizes the bucket ring for their costs. With `reversed`, each edge u ->
  // v is read as v -> u, so that the Dijkstras give the distances *to* the
  // source. A Dijkstra gives the ring up for the heap after passing
  // `empty_per_node` empty buckets per node (plus 4 per bucket of the
  // ring). Required before LevelDijkstra on that level.
  void Prepare(const LevelGraph& graph, int k, uint32_t nodes,
               bool reversed = false, uint32_t empty_per_node = 16);
  // Dijkstras since Prepare that ran on the heap (the ring unusable for
  // the level's costs, or given up: after that, every later one).
  int64_t heap_runs() const { return heap_runs_; }
  // A Dijkstra since Prepare gave the ring up.
  bool ring_given_up() const { return ring_given_up_; }

 private:
  friend void LevelDijkstra(uint32_t, int, int, std::vector<double>*,
                            LevelDijkstraScratch*);
  uint32_t nodes_ = 0;
  // Node u's edges: inter-zone ones at [begin_[u], split_[u]), intra-zone
  // ones at [split_[u], begin_[u + 1]).
  std::vector<uint32_t> begin_, split_, target_;
  std::vector<float> cost_;
  double width_ = 0;  // of a bucket; 0: the heap
  uint64_t empty_budget_ = 0;
  int64_t heap_runs_ = 0;
  bool ring_given_up_ = false;
  std::vector<std::vector<uint32_t>> ring_;
  std::vector<std::pair<double, uint32_t>> heap_;  // (distance, node)
  std::vector<uint32_t> position_;  // per node: its heap index, or ~0
  std::vector<uint8_t> state_;      // per node: kSettled | kViaIntra
};

// Distances on the level `scratch` was prepared for, from `source` (<
// nodes; +inf: not reached), into column `column` of `out`, node-major
// rows of `stride` values (out holds at least nodes * stride).
void LevelDijkstra(uint32_t source, int stride, int column,
                   std::vector<double>* out, LevelDijkstraScratch* scratch);

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_LEVEL_DIJKSTRA_H_
