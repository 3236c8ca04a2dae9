// ClassAStar: exact A* for any AgentClass, directly on the terrain grid —
// the oracle every class-aware planner is checked against.
//
// States are (anchor, heading) (heading always N for an unoriented class);
// moves and costs are the rules of agent_class.h, with footprints checked on
// the fly (O(footprint area) per position). Scratch (a NodeTable over
// anchors x headings, reset by generation stamp; the open list; the path
// buffer) is kept between queries: after warm-up FindPath allocates nothing
// and never clears O(map) state.
//
// Heuristic (admissible and consistent): octile (8-connected) or Manhattan
// (4-connected) anchor distance times the class's cheapest step multiplier
// (x backward_factor if that is below 1), plus, for oriented classes,
// turn_cost times a lower bound on the turns still needed: the heading
// increments to a fixed goal heading, or 1 (free goal heading) / 2 (fixed,
// already facing it) when the goal is off the line the unit can reach by
// stepping along its heading.
//
// The node table is laid out for one heading count (1, 4 or 8): a query
// for a class with another count rebuilds it (allocates; a warm-up per
// heading count). Limits: oriented 8-headed search on a grid needs anchors x 8
// node ids in 32 bits (grids up to about 16384 x 16384); larger is
// InvalidArgument.
//
//   ClassAStar search(terrain);
//   AgentPath path;
//   ClassAStarOptions options;
//   options.goal_heading = Direction::kE;        // or std::nullopt: any
//   ASSIGN_OR_RETURN(SearchOutcome outcome,
//                    search.FindPath(tank, {1, 1}, Direction::kN, {40, 9},
//                                    options, &path));
#ifndef ZONEPATH_AGENTS_CLASS_ASTAR_H_
#define ZONEPATH_AGENTS_CLASS_ASTAR_H_

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "zonepath/agents/agent_class.h"
#include "zonepath/agents/agent_path.h"
#include "zonepath/grid/grid.h"
#include "zonepath/search/grid_astar.h"
#include "zonepath/search/node_table.h"
#include "zonepath/search/open_list.h"
#include "zonepath/search/search_stats.h"

namespace zonepath {

struct ClassAStarOptions {
  // Required heading at the goal; nullopt accepts any (ignored for
  // unoriented classes).
  std::optional<Direction> goal_heading;
  // Stop with kLimitReached after this many expansions; 0 means no limit.
  int64_t max_expansions = 0;
  // Search only positions whose footprint (and turn sweep) lies inside this
  // rectangle.
  std::optional<Rect> bounds;
};

// Whether `anchor` is a legal position for `agent` with one of its headings
// (only `heading` when given) whose footprint lies inside `bounds`: what
// ClassAStar::FindPath requires of its goal, for callers that would rather
// skip a search than have it refuse the goal. O(headings x footprint).
bool LegalInBounds(const Grid& terrain, const AgentClass& agent, Point anchor,
                   std::optional<Direction> heading, const Rect& bounds);

class ClassAStar {
 public:
  // `terrain` must outlive this object.
  explicit ClassAStar(const Grid& terrain);

  // Plans for `agent` from (start, start_heading) to `goal` into `path`
  // (reset first; capacity reused). InvalidArgument if the start position
  // or the fixed goal position is not legal for the class (or not inside
  // the bounds), if no heading is legal at a free goal, or for a heading
  // the class does not have (unoriented classes: only N). kUnreachable for
  // anchors in different components of the terrain is answered without
  // searching (type 0 is blocked for every class, and an anchor always
  // moves between 4-adjacent passable cells).
  absl::StatusOr<SearchOutcome> FindPath(const AgentClass& agent, Point start,
                                         Direction start_heading, Point goal,
                                         const ClassAStarOptions& options,
                                         AgentPath* path);

  const SearchStats& stats() const { return stats_; }
  size_t MemoryUsage() const;

 private:
  // Points nodes_ at the node table for `headings` (1, 4 or 8) headings per
  // anchor, made on first use: one table per heading count, so queries
  // that alternate classes of different counts reuse their tables.
  absl::Status PrepareTable(int headings);

  const Grid* terrain_;
  std::array<std::optional<NodeTable>, 3> tables_;  // 1, 4, 8 headings
  NodeTable* nodes_ = nullptr;                      // this query's table
  OpenList open_;
  std::vector<uint8_t> reversed_;  // parent codes, goal to start
  SearchStats stats_;
};

}  // namespace zonepath

#endif  // ZONEPATH_AGENTS_CLASS_ASTAR_H_
