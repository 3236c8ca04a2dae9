// LevelLandmarks: ALT lower bounds (Goldberg & Harrelson, "Computing the
// shortest path: A* search meets graph theory") for the exact abstract
// search on one level.
//
// A few landmark nodes are chosen far apart (farthest first) and their
// distances to every node of the level are kept. Edges come in symmetric
// pairs, so for a landmark L and nodes n, g the triangle inequality gives
// d(n, g) >= |d(L, g) - d(L, n)|. The search's goal is virtual (the goal's
// links into the level, g_i at cost c_i), so per query
//   D_L = min_i d(L, g_i) + c_i,   E_L = max_i d(L, g_i) - c_i,
//   d(n, goal) >= max(D_L - d(L, n), d(L, n) - E_L).
// On generated rooms the octile heuristic leaves the top search to expand
// a third of the top level; the landmarks see the walls.
//
// Built lazily by each planner for the levels its exact top searches use,
// when the level is small enough (the top levels are: 4 230 nodes and 136 k
// edges at 16384² rooms): count + 1 Dijkstras over the level, then nothing
// per query but the goal terms.
//
//   LevelLandmarks lm;
//   lm.Build(graph, k, /*count=*/8);
//   lm.SetGoal(goal_links);        // per query
//   double h = lm.Bound(node);     // admissible, >= 0
#ifndef ZONEPATH_RUNTIME_LANDMARKS_H_
#define ZONEPATH_RUNTIME_LANDMARKS_H_

#include <cstdint>
#include <vector>

#include "connector.h"
#include "level_graph.h"

namespace zonepath::runtime_internal {

class LevelLandmarks {
 public:
  // Levels with more edges than this get no landmarks (building would
  // cost more than the searches save).
  static constexpr uint64_t kMaxEdges = uint64_t{1} << 18;

  bool built() const { return count_ > 0; }
  // Chooses up to `count` landmarks on level k and their distances.
  void Build(const LevelGraph& graph, int k, int count);
  // The goal's links into the level (node, cost) for the next queries.
  void SetGoal(const std::vector<Link>& goal_links);
  // A lower bound on the cost from level node `n` to the goal (0 if none).
  double Bound(uint32_t n) const;
  size_t MemoryUsage() const;

 private:
  void Dijkstra(const LevelGraph& graph, int k, uint32_t source,
                double* out) const;

  int count_ = 0;
  uint32_t nodes_ = 0;
  std::vector<double> dist_;        // node-major: dist_[n * count_ + l]
  std::vector<double> low_, high_;  // D_L and E_L per landmark
  std::vector<uint8_t> usable_;     // the goal's links all reach L
  mutable std::vector<std::pair<double, uint32_t>> heap_;
};

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_LANDMARKS_H_
