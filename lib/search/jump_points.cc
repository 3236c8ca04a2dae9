// Jump point search inside GridAStar (AStarOptions::jump_points).
//
// Harabor & Grastien's JPS with the rules for moves that may not cut
// corners (a diagonal step needs both orthogonal cells open, moves.h), on a
// grid whose passable cells all cost the same. From a jump point, rays run
// in the directions the pruning rules keep:
//   - the start: all eight;
//   - reached diagonally (dx, dy): (dx, dy), (dx, 0) and (0, dy);
//   - reached straight, say east: east, plus north and north-east when the
//     cell north of it is open but the one north of the cell behind it is
//     not (a wall ends there: nothing else reaches the far side as cheaply),
//     and likewise south.
// A straight ray stops at the goal or at such a cell; a diagonal ray stops
// at the goal or at a cell from which one of its two straight rays would
// stop. Cells outside the bounds or the corridor count as blocked. Every
// jump point is an A* node (g, parent direction) in GridAStar's node table;
// the path is the straight segments between them.
#include <algorithm>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "open_bits.h"
#include "open_cells.h"
#include "path_costs.h"
#include "search_steps.h"
#include "zonepath/search/grid_astar.h"
#include "zonepath/search/run_straightener.h"
#include "zonepath/search/search_common.h"

namespace zonepath {
namespace {

using search_internal::DoubleCost;
using search_internal::OpenBits;
using search_internal::OpenBitsWindow;
using search_internal::OpenCells;
using search_internal::PairCost;

// Whether (x, y) is a target every ray stops at (OpenBits::SetTargets).
bool IsTarget(const OpenCells&, int32_t, int32_t) { return false; }
bool IsTarget(const OpenBitsWindow&, int32_t, int32_t) { return false; }
bool IsTarget(const OpenBits& open, int32_t x, int32_t y) {
  return open.IsTarget(x, y);
}

// Runs a diagonal ray from p (exclusive), likewise.
template <typename Open>
bool JumpDiagonal(const Open& open, Point p, int dx, int dy, Point goal,
                  uint32_t* steps) {
  int32_t x = p.x, y = p.y;
  uint32_t n = 0, unused;
  while (true) {
    if (!(open(x + dx, y) && open(x, y + dy) && open(x + dx, y + dy))) {
      return false;
    }
    x += dx;
    y += dy;
    ++n;
    if ((x == goal.x && y == goal.y) || IsTarget(open, x, y) ||
        open.JumpStraight({x, y}, dx, 0, goal, &unused) ||
        open.JumpStraight({x, y}, 0, dy, goal, &unused)) {
      *steps = n;
      return true;
    }
  }
}

// The directions (a bit per Direction) the rays from p leave in, p reached
// by a step in direction `in` (-1: p is the start).
template <typename Open>
uint32_t RayDirections(const Open& open, Point p, int in) {
  if (in < 0) return 0xFF;
  const Direction d = static_cast<Direction>(in);
  if (IsDiagonal(d)) {
    return 1u << in | 1u << ((in + 7) & 7) | 1u << ((in + 1) & 7);
  }
  uint32_t rays = 1u << in;
  const int dx = Dx(d), dy = Dy(d);
  // The two sides of the ray: left (in - 2) and right (in + 2) of it.
  for (const int side : {(in + 6) & 7, (in + 2) & 7}) {
    const int sx = kDirectionDx[side], sy = kDirectionDy[side];
    if (open(p.x + sx, p.y + sy) && !open(p.x + sx - dx, p.y + sy - dy)) {
      // The side itself, and the diagonal between it and the ray.
      rays |= 1u << side |
              1u << (side == ((in + 6) & 7) ? (in + 7) & 7 : (in + 1) & 7);
    }
  }
  return rays;
}

}  // namespace

template <typename Cost, typename Open>
SearchOutcome GridAStar::SearchJumps(Point start, Point goal,
                                     const AStarOptions& options,
                                     const Open& open, RunLengthPath* path) {
  const Grid& grid = *grid_;
  const uint32_t cost_sum = 2u * grid.min_cost();  // every step's a + b
  const double min_cost = grid.min_cost();
  auto f_of = [&](uint64_t g, Point q) {
    if constexpr (std::is_same_v<Cost, PairCost>) {
      // g + h as a pair, so that equal f are equal bit for bit.
      const uint64_t dx = static_cast<uint64_t>(std::abs(q.x - goal.x));
      const uint64_t dy = static_cast<uint64_t>(std::abs(q.y - goal.y));
      const uint64_t lo = std::min(dx, dy);
      return PairCost::Value((g & 0xFFFFFFFFu) + cost_sum * (dx + dy - 2 * lo),
                             (g >> 32) + cost_sum * lo);
    }
    return Cost::Value(g) +
           HeuristicCost(q, goal, Connectivity::kEight, min_cost);
  };

  NodeTable& nodes = BeginSearch<Cost>(start, f_of);
  const NodeId start_id = IdOf(start);
  const NodeId goal_id = IdOf(goal);
  while (!open_.empty()) {
    NodeId id;
    SearchNode& node = CloseBest(nodes, &id);
    const Point p = PointOfId(id);
    if (id == goal_id) {
      ExtractJumpPath<Cost>(start, goal, options,
                            options.bounds.value_or(grid.bounds()), path);
      return SearchOutcome::kFound;
    }
    if (options.max_expansions > 0 &&
        stats_.expanded >= options.max_expansions) {
      return SearchOutcome::kLimitReached;
    }
    ExpandJumpPoint<Cost>(nodes, open, node, p, id == start_id, goal, f_of);
  }
  return SearchOutcome::kUnreachable;
}

template <typename Cost, typename Open, typename FOf>
void GridAStar::ExpandJumpPoint(NodeTable& nodes, const Open& open,
                                const SearchNode& node, Point p, bool is_start,
                                Point goal, const FOf& f_of) {
  const uint32_t cost_sum = 2u * grid_->min_cost();  // every step's a + b
  const uint64_t p_g = node.g;
  const uint32_t rays = RayDirections(open, p, is_start ? -1 : node.parent());
  for (int d = 0; d < kDirectionCount; ++d) {
    if (!(rays >> d & 1)) continue;
    const int dx = kDirectionDx[d], dy = kDirectionDy[d];
    uint32_t steps = 0;
    const bool found = (d & 1) != 0
                           ? JumpDiagonal(open, p, dx, dy, goal, &steps)
                           : open.JumpStraight(p, dx, dy, goal, &steps);
    if (!found) continue;
    const Point q{p.x + dx * static_cast<int32_t>(steps),
                  p.y + dy * static_cast<int32_t>(steps)};
    const uint64_t g = Cost::AddSteps(p_g, d, cost_sum, steps);
    const NodeId q_id = IdOf(q);
    SearchNode& next = nodes.Touch(q_id);
    if (next.closed()) continue;
    Improve<Cost>(nodes, next, q_id, q, g, d, f_of);
  }
}

absl::Status GridAStar::JumpDistances(Point source,
                                      absl::Span<const Point> targets,
                                      const Rect& bounds,
                                      absl::Span<double> out) {
  stats_ = SearchStats();
  if (out.size() != targets.size()) {
    return absl::InvalidArgumentError(
        "JumpDistances: one output per target is needed");
  }
  if (!JumpDistancesApply(*grid_, Connectivity::kEight, bounds)) {
    return absl::InvalidArgumentError(
        "JumpDistances needs a grid of one cost and bounds of at most 256 "
        "cells a side");
  }
  if (absl::Status s = CheckEndpoint(*grid_, bounds, source, "source");
      !s.ok()) {
    return s;
  }
  const absl::Time begin = absl::Now();
  std::fill(out.begin(), out.end(), std::numeric_limits<double>::infinity());
  use_local_ = true;
  // From the first cell of the bounds on the grid (FindPath's rule).
  const Rect on_grid = Intersect(bounds, grid_->bounds());
  origin_ = {on_grid.x0, on_grid.y0};
  // The targets are marked in bits of the window's own (the grid's are
  // shared), copied from the grid's where it has them, else read from its
  // costs.
  if (grid_bits_ != nullptr) {
    open_bits_->FillFrom(*grid_bits_, on_grid);
  } else {
    FillOpenBits(on_grid, nullptr);
  }
  open_bits_->SetTargets(targets);
  const OpenBits& open = *open_bits_;
  uint32_t left = open.TargetCount();
  // Dijkstra's order (no estimate): each target's cost is final when it is
  // closed. Rays stop at every target, so none is passed by (rays that
  // pass a cell are what let a plain jump point close above its cost).
  // (A*'s order towards the nearest target cut only ~5 % of this on
  // Cauldron's connections.)
  auto f_of = [](uint64_t g, Point) { return PairCost::Value(g); };
  NodeTable& nodes = BeginSearch<PairCost>(source, f_of);
  const NodeId source_id = IdOf(source);
  const Point nowhere{-1, -1};  // no goal: the targets stop the rays
  while (!open_.empty() && left > 0) {
    NodeId id;
    SearchNode& node = CloseBest(nodes, &id);
    const Point p = PointOfId(id);
    if (open.IsTarget(p.x, p.y)) {
      const double g = PairCost::Value(node.g);
      for (size_t i = 0; i < targets.size(); ++i) {
        if (targets[i] == p) out[i] = g;
      }
      --left;
    }
    ExpandJumpPoint<PairCost>(nodes, open, node, p, id == source_id, nowhere,
                              f_of);
  }
  stats_.time = absl::Now() - begin;
  return absl::OkStatus();
}

double GridAStar::OctileDistance(Point a, Point b, uint8_t cost) {
  const uint64_t dx = static_cast<uint64_t>(std::abs(int64_t{a.x} - b.x));
  const uint64_t dy = static_cast<uint64_t>(std::abs(int64_t{a.y} - b.y));
  const uint64_t diagonal = std::min(dx, dy);
  const uint64_t sum = 2 * uint64_t{cost};  // a step's cost_sum
  return PairCost::Value(sum * (std::max(dx, dy) - diagonal), sum * diagonal);
}

bool GridAStar::JumpDistancesApply(const Grid& grid, Connectivity connectivity,
                                   const Rect& bounds) {
  return grid.OneCost() && connectivity == Connectivity::kEight &&
         bounds.width() <= kLocalSide && bounds.height() <= kLocalSide &&
         static_cast<int64_t>(bounds.width()) * bounds.height() <=
             PairCost::kMaxPairCells;
}

template <typename Cost>
void GridAStar::ExtractJumpPath(Point start, Point goal,
                                const AStarOptions& options, const Rect& bounds,
                                RunLengthPath* path) {
  // From each jump point q, walk back along its parent direction to the
  // expanded cell r whose cost plus the steps walked is q's: the jump
  // point q was reached from, or one on the same segment exactly as far
  // from the start. (The first expanded cell on the way is not enough: a
  // jump point may have been expanded with more than its least cost, its
  // best way being a ray that passes it.)
  const uint32_t cost_sum = 2u * grid_->min_cost();
  // Segments come goal first; neighbours in one direction merge.
  jump_runs_.clear();
  Point q = goal;
  while (!(q == start)) {
    const SearchNode& n = Active().Node(IdOf(q));
    const int d = n.parent();
    const Direction back = Opposite(static_cast<Direction>(d));
    uint32_t steps = 0;
    while (true) {
      ++steps;
      q = Step(q, back);
      if (!grid_->InBounds(q)) continue;
      const SearchNode* r = FindNode(q);  // expanded: fresh and closed
      if (r == nullptr || !Active().Fresh(*r) || !r->closed()) continue;
      if (Cost::Equal(Cost::AddSteps(r->g, d, cost_sum, steps), n.g)) break;
    }
    if (!jump_runs_.empty() &&
        jump_runs_.back().direction == static_cast<Direction>(d)) {
      jump_runs_.back().count += steps;
    } else {
      jump_runs_.push_back({static_cast<Direction>(d), steps});
    }
  }
  std::reverse(jump_runs_.begin(), jump_runs_.end());
  // On a large grid its tiles, not its costs: the costs' rows of the
  // window are cold (OpenCellTiles). (Straightening in a corridor reads the
  // costs: the tiles know no corridor.)
  const OpenCellTiles* tiles = cell_tiles_.get();
  if (options.prefer_straight) {
    if (tiles != nullptr && options.corridor == nullptr) {
      StraightenRuns(*tiles, bounds, start, &jump_runs_);
    } else {
      StraightenRuns(*grid_, bounds, options.corridor, start, &jump_runs_);
    }
  }
  // The cost is summed in walking order, as WalkPath sums it, from the
  // cells themselves (or the tiles, whose one cost was checked against
  // every cell): a loaded world's cost counts (Grid::OneCost) are not
  // checked against its cells, so they may not be trusted for costs.
  for (const Run& run : jump_runs_) path->Append(run.direction, run.count);
  path->set_cost(tiles != nullptr ? RunsCost(*tiles, start, jump_runs_)
                                  : RunsCost(*grid_, start, jump_runs_));
}

template SearchOutcome GridAStar::SearchJumps<PairCost, OpenCells>(
    Point, Point, const AStarOptions&, const OpenCells&, RunLengthPath*);
template SearchOutcome GridAStar::SearchJumps<PairCost, OpenBits>(
    Point, Point, const AStarOptions&, const OpenBits&, RunLengthPath*);
template SearchOutcome GridAStar::SearchJumps<DoubleCost, OpenCells>(
    Point, Point, const AStarOptions&, const OpenCells&, RunLengthPath*);
template SearchOutcome GridAStar::SearchJumps<DoubleCost, OpenBits>(
    Point, Point, const AStarOptions&, const OpenBits&, RunLengthPath*);
template SearchOutcome GridAStar::SearchJumps<PairCost, OpenBitsWindow>(
    Point, Point, const AStarOptions&, const OpenBitsWindow&, RunLengthPath*);
template SearchOutcome GridAStar::SearchJumps<DoubleCost, OpenBitsWindow>(
    Point, Point, const AStarOptions&, const OpenBitsWindow&, RunLengthPath*);

}  // namespace zonepath
