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
// The walk is a TableWalk: one node at a time, so that a cursor's first
// moves wait only for the path's first nodes (CorridorRefiner steps it as
// its windows reach the walked end).
//
//   std::shared_ptr<const LevelDistances> table =
//       LevelDistances::Build(graph, k, /*max_nodes=*/1024);
//   float d = table->Distance(u, v);   // +inf: not connected
//   TableWalk walk;
//   walk.Begin(graph, k, *table, u, v, &stats, &path_nodes, nullptr);
//   std::vector<uint32_t> nodes = {u};   // Step appends the nodes after u
//   while (!walk.done()) RETURN_IF_ERROR(walk.Step(&nodes));
#ifndef ZONEPATH_RUNTIME_LEVEL_DISTANCES_H_
#define ZONEPATH_RUNTIME_LEVEL_DISTANCES_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "level_graph.h"
#include "zonepath/grid/geometry.h"
#include "zonepath/search/search_stats.h"

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

// A shortest level path from one node to another, walked along the
// table's row of the target: at node u the edge (u, v) minimising
// cost(u, v) + d(v, target). Holds no memory of its own.
class TableWalk {
 public:
  // Begins at `from` towards `target` (both < table.nodes()) on level k.
  // Counts go to *stats (a node expanded per node of the path, the edges
  // looked at as generated) and *path_nodes (one per node of the path);
  // `trace` (may be null or empty) is called with each node's cell. All
  // must outlive the walk's steps.
  void Begin(const LevelGraph& graph, int k, const LevelDistances& table,
             uint32_t from, uint32_t target, SearchStats* stats,
             int64_t* path_nodes, const std::function<void(Point)>* trace);
  bool done() const { return at_ == target_; }
  // Steps once and appends the node reached to *nodes. DataLoss when no
  // edge leaves less to go, or after table.nodes() steps: each step leaves
  // less by at least the cheapest edge, more than the table's rounding on
  // any world made by the builder, so only a crafted file's costs (so
  // small or so large that rounding or a float's range hides that) get
  // there, never a loop. Every edge of a node is tried: skipping its
  // intra-zone edges after an intra-zone step, as the search does, fails
  // on ties, where the step taken was as cheap as the one intra-zone edge
  // that went on.
  absl::Status Step(std::vector<uint32_t>* nodes);

 private:
  void Visit(uint32_t node);

  const LevelGraph* graph_ = nullptr;
  int k_ = 0;
  const float* row_ = nullptr;  // distances to target_
  uint32_t table_nodes_ = 0;
  uint32_t from_ = 0, at_ = 0, target_ = 0;
  uint32_t steps_ = 0;
  SearchStats* stats_ = nullptr;
  int64_t* path_nodes_ = nullptr;
  const std::function<void(Point)>* trace_ = nullptr;
};

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_LEVEL_DISTANCES_H_
