#include "zonepath/search/grid_astar.h"

#include <algorithm>
#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "zonepath/search/search_common.h"

namespace zonepath {
namespace {

// Terrain costs of p's eight neighbours in Direction order (0 for blocked
// cells and cells outside `bounds`) and the mask of directions a unit on p
// may step in (OpenDirections). Cells strictly inside `bounds` skip the
// bounds checks and read the three rows by cell index.
uint8_t ReadNeighbours(const Grid& grid, Point p, const Rect& bounds,
                       Connectivity connectivity, uint8_t cost[8]) {
  if (p.x > bounds.x0 && p.y > bounds.y0 && p.x + 1 < bounds.x1 &&
      p.y + 1 < bounds.y1) {
    const uint32_t w = static_cast<uint32_t>(grid.width());
    const uint32_t i = grid.Index(p).value();
    cost[0] = grid.cost(CellIndex(i - w));
    cost[1] = grid.cost(CellIndex(i - w + 1));
    cost[2] = grid.cost(CellIndex(i + 1));
    cost[3] = grid.cost(CellIndex(i + w + 1));
    cost[4] = grid.cost(CellIndex(i + w));
    cost[5] = grid.cost(CellIndex(i + w - 1));
    cost[6] = grid.cost(CellIndex(i - 1));
    cost[7] = grid.cost(CellIndex(i - w - 1));
  } else {
    for (int d = 0; d < kDirectionCount; ++d) {
      const Point q = Step(p, static_cast<Direction>(d));
      cost[d] = bounds.Contains(q) ? grid.cost(q) : kBlocked;
    }
  }
  const uint32_t n = cost[0] != 0, e = cost[2] != 0, s = cost[4] != 0,
                 w = cost[6] != 0;
  uint32_t open = n | e << 2 | s << 4 | w << 6;
  if (connectivity == Connectivity::kEight) {
    open |= (n & e & (cost[1] != 0)) << 1 | (e & s & (cost[3] != 0)) << 3 |
            (s & w & (cost[5] != 0)) << 5 | (w & n & (cost[7] != 0)) << 7;
  }
  return static_cast<uint8_t>(open);
}

// Step cost factor per direction: StepCost(d, a, b) == (a + b) * factor[d]
// exactly (halving is exact in binary floating point).
constexpr double kHalfStepFactor[kDirectionCount] = {
    0.5, 0.5 * kSqrt2, 0.5, 0.5 * kSqrt2, 0.5, 0.5 * kSqrt2, 0.5, 0.5 * kSqrt2};

// Offset of the neighbour in direction d within a node tile.
constexpr int32_t kTileOffset[kDirectionCount] = {-NodeTable::kTileSide,
                                                  -NodeTable::kTileSide + 1,
                                                  1,
                                                  NodeTable::kTileSide + 1,
                                                  NodeTable::kTileSide,
                                                  NodeTable::kTileSide - 1,
                                                  -1,
                                                  -NodeTable::kTileSide - 1};

}  // namespace

absl::string_view SearchOutcomeName(SearchOutcome outcome) {
  switch (outcome) {
    case SearchOutcome::kFound:
      return "found";
    case SearchOutcome::kUnreachable:
      return "unreachable";
    case SearchOutcome::kLimitReached:
      return "limit";
  }
  return "?";
}

GridAStar::GridAStar(const Grid& grid)
    : grid_(&grid), nodes_(grid.width(), grid.height()) {}

absl::StatusOr<SearchOutcome> GridAStar::FindPath(Point start, Point goal,
                                                  const AStarOptions& options,
                                                  RunLengthPath* path) {
  stats_ = SearchStats();
  if (!(options.weight >= 1.0) || !std::isfinite(options.weight)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "A* weight must be a finite number >= 1, got ", options.weight));
  }
  if (options.max_expansions < 0) {
    return absl::InvalidArgumentError("A* max_expansions must be >= 0");
  }
  const Rect bounds = options.bounds.value_or(grid_->bounds());
  if (absl::Status s = CheckEndpoint(*grid_, bounds, start, "start"); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckEndpoint(*grid_, bounds, goal, "goal"); !s.ok()) {
    return s;
  }
  path->Reset(start);
  if (start == goal) return SearchOutcome::kFound;
  if (!grid_->SameComponent(start, goal)) return SearchOutcome::kUnreachable;

  const absl::Time begin = absl::Now();
  SearchOutcome outcome = SearchOutcome::kUnreachable;
  Search(start, goal, options, bounds, &outcome);
  if (outcome == SearchOutcome::kFound) ExtractPath(start, goal, path);
  stats_.time = absl::Now() - begin;
  return outcome;
}

void GridAStar::Search(Point start, Point goal, const AStarOptions& options,
                       const Rect& bounds, SearchOutcome* outcome) {
  const Grid& grid = *grid_;
  const double h_scale = options.weight;
  const double min_cost = grid.min_cost();
  auto heuristic = [&](Point p) {
    return h_scale * HeuristicCost(p, goal, options.connectivity, min_cost);
  };

  nodes_.NewSearch();
  open_.Clear();
  const NodeId start_id = nodes_.Id(start);
  const NodeId goal_id = nodes_.Id(goal);
  nodes_.Touch(start_id).g = 0;
  open_.Push({heuristic(start), 0.0, start_id}, nodes_);
  ++stats_.heap_pushes;
  while (!open_.empty()) {
    const OpenList::Entry top = open_.Pop(nodes_);
    ++stats_.heap_pops;
    SearchNode& node = nodes_.Node(top.id);
    node.heap_index = SearchNode::kClosed;
    ++stats_.expanded;
    const Point p = nodes_.PointOf(top.id);
    if (trace_ != nullptr) trace_->push_back(p);
    if (top.id == goal_id) {
      *outcome = SearchOutcome::kFound;
      return;
    }
    if (options.max_expansions > 0 &&
        stats_.expanded >= options.max_expansions) {
      *outcome = SearchOutcome::kLimitReached;
      return;
    }
    const uint32_t p_cost = grid.cost(p);
    uint8_t cost[kDirectionCount];
    const uint32_t open =
        ReadNeighbours(grid, p, bounds, options.connectivity, cost);
    // Neighbours inside p's tile are addressed from p's node directly.
    const NodeId local_x = top.id & (NodeTable::kTileSide - 1);
    const NodeId local_y =
        (top.id >> NodeTable::kTileShift) & (NodeTable::kTileSide - 1);
    const bool inside_tile = local_x - 1 < NodeId{NodeTable::kTileSide - 2} &&
                             local_y - 1 < NodeId{NodeTable::kTileSide - 2};
    for (int d = 0; d < kDirectionCount; ++d) {
      if (!(open >> d & 1)) continue;
      const Point q = Step(p, static_cast<Direction>(d));
      const double g =
          top.g + static_cast<double>(p_cost + cost[d]) * kHalfStepFactor[d];
      NodeId q_id;
      SearchNode* next_ptr;
      if (inside_tile) {
        q_id = top.id + static_cast<NodeId>(kTileOffset[d]);
        next_ptr = &node + kTileOffset[d];
        if (!nodes_.Fresh(*next_ptr)) nodes_.Init(*next_ptr);
      } else {
        q_id = nodes_.Id(q);
        next_ptr = &nodes_.Touch(q_id);
      }
      SearchNode& next = *next_ptr;
      if (g >= next.g) {  // also skips closed nodes (consistent h)
        // An equally short way in that keeps p's direction: take it (the
        // parent chain stays acyclic as costs are positive).
        if (options.prefer_straight && !(p == start) && node.parent() == d &&
            next.parent() != d && g <= next.g + 1e-9 * next.g) {
          next.set_parent(d);
        }
        continue;
      }
      next.g = g;
      next.set_parent(d);
      ++stats_.generated;
      const OpenList::Entry entry{g + heuristic(q), g, q_id};
      if (next.heap_index < SearchNode::kUnqueued) {
        open_.Decrease(next.heap_index, entry, nodes_);
        ++stats_.heap_decreases;
      } else {  // new, or closed and reopened (weighted A*)
        open_.Push(entry, nodes_);
        ++stats_.heap_pushes;
      }
    }
  }
  *outcome = SearchOutcome::kUnreachable;
}

void GridAStar::ExtractPath(Point start, Point goal, RunLengthPath* path) {
  reversed_steps_.clear();
  Point p = goal;
  while (!(p == start)) {
    const Direction d =
        static_cast<Direction>(nodes_.Node(nodes_.Id(p)).parent());
    reversed_steps_.push_back(d);
    p = Step(p, Opposite(d));
  }
  // The cost is summed in walking order, so it equals WalkPath's exactly
  // (tie-breaking may pick parents whose g differs in the last bits).
  double cost = 0;
  p = start;
  for (auto it = reversed_steps_.rbegin(); it != reversed_steps_.rend(); ++it) {
    path->Append(*it);
    cost += StepCost(*grid_, p, *it);
    p = Step(p, *it);
  }
  path->set_cost(cost);
}

bool GridAStar::Expanded(Point p) const {
  if (!grid_->InBounds(p)) return false;
  const SearchNode* n = nodes_.Find(p);
  return n != nullptr && nodes_.Fresh(*n) && n->closed();
}

size_t GridAStar::MemoryUsage() const {
  return sizeof(*this) + nodes_.MemoryUsage() + open_.MemoryUsage() +
         reversed_steps_.capacity() * sizeof(Direction);
}

}  // namespace zonepath
