// LevelLandmarks: ALT lower bounds (Goldberg & Harrelson, "Computing the
// shortest path: A* search meets graph theory") for the searches on one
// level: the exact top search, and refinement's windows on that level.
//
// A few landmark nodes are chosen far apart (farthest first) and their
// distances to every node of the level are kept, as floats (Bound takes
// their rounding off: slack()). Edges come in symmetric
// pairs, so for a landmark L and nodes n, g the triangle inequality gives
// d(n, g) >= |d(L, g) - d(L, n)|. The search's goal is virtual (the goal's
// links into the level, g_i at cost c_i), so per query
//   D_L = min_i d(L, g_i) + c_i,   E_L = max_i d(L, g_i) - c_i,
//   d(n, goal) >= max(D_L - d(L, n), d(L, n) - E_L).
// On generated rooms the octile heuristic leaves the top search to expand
// a third of the top level; the landmarks see the walls.
//
// Refinement's window searches on a level with a table made with the
// planner use it too (corridor_refiner.h).
//
// The table is built once per world and level, by the world's first
// planner when it is made (levels of at most
// PlannerOptions::window_landmark_nodes nodes, 2^19 by default, with
// PlannerOptions::landmarks_at_construction) or else on the first exact
// search that needs it, and shared by every planner of the world
// (World::DerivedOnce): count + 1 Dijkstras over the level, for levels of
// at most kMaxEdges edges (16384² rooms: level 4, 4 174 nodes and 134 k
// edges; level 3, 42 797 nodes and 1.19 M edges, built in ~0.15 s with 8
// landmarks, twice the Dijkstras with 16). A
// LandmarkBound holds one query's goal terms.
//
//   std::shared_ptr<const LevelLandmarks> table =
//       LevelLandmarks::Build(graph, k, /*count=*/16);
//   LandmarkBound bound;
//   bound.SetGoal(*table, goal_links);    // per query
//   double h = bound.Bound(node);         // admissible, >= 0
#ifndef ZONEPATH_RUNTIME_LANDMARKS_H_
#define ZONEPATH_RUNTIME_LANDMARKS_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/types/span.h"
#include "connector.h"
#include "level_graph.h"

namespace zonepath::runtime_internal {

class LevelLandmarks {
 public:
  // Levels with more edges or node ids than this get no landmarks
  // (building would cost more than the searches save).
  // 2^23 takes in level 3 of 16384^2 and 32768^2 worlds (with zones of 32:
  // 1.2 M and 4.8 M edges on rooms; of 64, the automatic size there: 0.38 M
  // and 1.6 M), the top level of most long queries there: 4x fewer
  // nodes expanded there, for a one-time build (with 8 landmarks ~0.15 s /
  // ~0.6 s; 16 take twice the Dijkstras).
  static constexpr uint64_t kMaxEdges = uint64_t{1} << 23;
  // Most landmarks a table holds (PlannerOptions::landmarks is clamped).
  static constexpr int kMaxCount = 32;

  // Up to `count` landmarks on level k and their distances; null when the
  // level is too large or empty.
  static std::shared_ptr<const LevelLandmarks> Build(const LevelGraph& graph,
                                                     int k, int count);
  int count() const { return count_; }
  uint32_t nodes() const { return nodes_; }
  // Distances from each landmark to node n, rounded to floats (+inf: not
  // reachable).
  const float* Row(uint32_t n) const {
    return &dist_[static_cast<size_t>(n) * count_];
  }
  // The largest finite distance (before rounding).
  double max_distance() const { return max_distance_; }
  size_t MemoryUsage() const {
    return sizeof(*this) + dist_.capacity() * sizeof(float);
  }

 private:
  int count_ = 0;
  uint32_t nodes_ = 0;
  double max_distance_ = 0;
  std::vector<float> dist_;  // node-major: dist_[n * count_ + l]
};

// One search's goal terms over a LevelLandmarks table (per planner): a
// query's goal links, or one refinement window's target node.
class LandmarkBound {
 public:
  // A query whose distances or goal terms exceed this (2^100, far beyond
  // any real world's; float terms of values below it cannot overflow) gets
  // no landmark bound.
  static constexpr double kMaxValue = 0x1p100;
  // The goal's links into the level (node, cost; one node at cost 0 for a
  // single target); `table` must outlive the Bound calls. Bound reads the
  // table's first `max_landmarks` landmarks only (chosen farthest first,
  // so they are the ones a table of that many would hold).
  void SetGoal(const LevelLandmarks& table, absl::Span<const Link> goal,
               int max_landmarks = LevelLandmarks::kMaxCount);
  // A lower bound on the cost from level node `n` to the goal (0: none).
  double Bound(uint32_t n) const;
  // What Bound takes off for the rounding of its float arithmetic: 2^-22
  // of the largest value involved (a distance of 20 000: ~0.005).
  double slack() const { return slack_; }
  size_t MemoryUsage() const {
    return (low_.capacity() + high_.capacity()) * sizeof(float);
  }

 private:
  const LevelLandmarks* table_ = nullptr;
  int count_ = 0;  // landmarks read: the table's first count_
  // What Bound subtracts for the floats' rounding (SetGoal).
  double slack_ = 0;
  // D_L and E_L per landmark; -inf and +inf for a landmark that some goal
  // link does not reach, so that its terms never raise the bound and
  // Bound needs no branch per landmark (it runs for every node the top
  // search generates: a tenth of the top search's instructions).
  std::vector<float> low_, high_;
};

}  // namespace zonepath::runtime_internal

#endif  // ZONEPATH_RUNTIME_LANDMARKS_H_
