// LevelDistances: the distance between every two nodes of a small abstract
// level, so that an exact top-level search there becomes a table lookup
// and a walk (Planner: levels of at most PlannerOptions::
// distance_table_nodes nodes, the top level of a 1024^2 map: 865 nodes on
// Boston_0_1024, 934 on Cauldron).
//
// A query's best abstract path runs from one of the start's links (s_i,
// cost a_i) to one of the goal's (g_j, cost b_j): the pair minimising
// a_i + d(s_i, g_j) + b_j, read from the table. The path itself is walked
// from s_i: at node u, the edge (u, v) minimising cost(u, v) + d(v, g_j),
// until g_j. Each step follows an edge of a shortest path (Bellman's
// equation), so the walk costs what the search would have found, up to
// the table's float rounding (~6e-8 relative a value; the walked cost is
// summed exactly from the edges). Row g holds the distances *to* g (a
// Dijkstra from g over the reversed edges), so the two directions of an
// edge need not cost the same.
//
// One table per world and level, made by the world's first planner (one
// Dijkstra per node: ~50 ms for Boston's top level) and shared (World::
// DerivedOnce); 4 bytes per pair of nodes (865 nodes: 3.0 MB).
//
//   std::shared_ptr<const LevelDistances> table =
//       LevelDistances::Build(graph, k, /*max_nodes=*/1024);
//   float d = table->Distance(u, v);   // +inf: not connected
#ifndef ZONEPATH_RUNTIME_LEVEL_DISTANCES_H_
#define ZONEPATH_RUNTIME_LEVEL_DISTANCES_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "level_graph.h"

namespace zonepath::runtime_internal {

class LevelDistances {
 public:
  // Largest max_nodes a planner may ask for: 4096 nodes, 64 MB.
  static constexpr uint32_t kMaxNodes = 4096;
  // Most nodes x edges of a level to build for (one Dijkstra per node):
  // 2^27, ~15x the top level of a 1024^2 map (Boston_0_1024: 865 nodes x
  // 10 208 edges), so that no world file, however dense its cliques, makes
  // a planner's constructor run for long.
  static constexpr double kMaxWork = double{1 << 27};

  // The table of level k; null when the level is empty, has more than
  // min(max_nodes, kMaxNodes) node ids, or nodes x live edges above
  // kMaxWork.
  static std::shared_ptr<const LevelDistances> Build(const LevelGraph& graph,
                                                     int k, uint32_t max_nodes);
  uint32_t nodes() const { return nodes_; }
  // The cost of a cheapest level path from `from` to `to` (both < nodes()),
  // rounded to a float; +inf when there is none (or beyond a float).
  float Distance(uint32_t from, uint32_t to) const {
    return dist_[static_cast<size_t>(to) * nodes_ + from];
  }
  // The distances from every node to `to`.
  const float* Row(uint32_t to) const {
    return &dist_[static_cast<size_t>(to) * nodes_];
  }
  size_t MemoryUsage() const {
    return sizeof(*this) + dist_.capacity() * sizeof(float);
  }

 private:
  uint32_t nodes_ = 0;
  std::vector<float> dist_;  // dist_[to * nodes_ + from]
};

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_LEVEL_DISTANCES_H_
