#include "zonepath/search/one_turn_path.h"

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <utility>

#include "open_bits.h"

namespace zonepath {
namespace {

// Walks `runs` from a: their cost, or nullopt as soon as a step is illegal
// (CanStep's rules) or the cost passes `limit`. The runs lead from a to a
// cell of the grid and stay in the rectangle the two span, so every cell
// read is in bounds; each is read once (the walk is most of string
// pulling's work on weighted grids).
// `Cells` is the Grid or its OpenCellTiles (the same answers).
template <typename Cells>
std::optional<double> Walk(const Cells& grid, Connectivity connectivity,
                           Point a, const Run* runs, int count, double limit) {
  double cost = 0;
  Point p = a;
  uint8_t from = grid.cost(a);
  for (int r = 0; r < count; ++r) {
    const Direction d = runs[r].direction;
    const bool diagonal = IsDiagonal(d);
    if (diagonal && connectivity == Connectivity::kFour) return std::nullopt;
    for (uint32_t i = 0; i < runs[r].count; ++i) {
      const Point q = Step(p, d);
      const uint8_t to = grid.cost(q);
      if (to == kBlocked || (diagonal && (!grid.passable({q.x, p.y}) ||
                                          !grid.passable({p.x, q.y})))) {
        return std::nullopt;
      }
      cost += StepCost(d, from, to);
      if (cost > limit) return std::nullopt;
      from = to;
      p = q;
    }
  }
  return cost;
}

// One float ulp (2^-23) relative: abstract edge costs are floats rounded
// from the exact least cost, so the least-cost way may sum to a hair above
// its edge; a way dearer than that is not taken.
double CostLimit(double max_cost) {
  return max_cost + 0x1p-23 * (max_cost > 1 ? max_cost : 1);
}

// The way's runs, diagonal (or x) first; an empty run is left out (its
// direction would be (0, 0)).
OneTurnWay RunsBetween(Connectivity connectivity, Point a, Point b) {
  const int32_t dx = b.x - a.x, dy = b.y - a.y;
  const int sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
  const uint32_t ax = static_cast<uint32_t>(std::abs(dx));
  const uint32_t ay = static_cast<uint32_t>(std::abs(dy));
  OneTurnWay way;
  const auto add = [&](int step_x, int step_y, uint32_t steps) {
    if (steps > 0) {
      way.runs[way.count++] = {*DirectionFromDelta(step_x, step_y), steps};
    }
  };
  if (connectivity == Connectivity::kFour) {
    add(sx, 0, ax);
    add(0, sy, ay);
  } else {
    const uint32_t diagonal = ax < ay ? ax : ay;
    add(sx, sy, diagonal);
    add(ax > ay ? sx : 0, ax > ay ? 0 : sy, (ax > ay ? ax : ay) - diagonal);
  }
  return way;
}

// The first of the (at most two) orders of the way from a to b that Walk
// takes within `limit`: the run in direction `continues` first if it is
// one of them, else the diagonal (x) run first. Nothing off the grid.
template <typename Cells>
std::optional<OneTurnWay> FirstWayWithin(const Cells& grid,
                                         Connectivity connectivity, Point a,
                                         Point b, double limit,
                                         std::optional<Direction> continues) {
  if (!grid.InBounds(a) || !grid.InBounds(b)) return std::nullopt;
  OneTurnWay way = RunsBetween(connectivity, a, b);
  Run* runs = way.runs;
  const int count = way.count;
  if (!(limit >= 0)) return std::nullopt;  // also a NaN limit: no way
  if (count == 0) return way;              // a == b: the empty way
  if (count == 2 && continues == runs[1].direction) std::swap(runs[0], runs[1]);
  for (int order = 0; order < count; ++order) {
    if (order == 1) std::swap(runs[0], runs[1]);
    const std::optional<double> cost =
        Walk(grid, connectivity, a, runs, count, limit);
    if (cost.has_value()) {
      way.cost = *cost;
      return way;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<OneTurnWay> FindOneTurnWay(const Grid& grid,
                                         Connectivity connectivity, Point a,
                                         Point b, double max_cost) {
  return FirstWayWithin(grid, connectivity, a, b, CostLimit(max_cost),
                        std::nullopt);
}

std::optional<OneTurnWay> FindOneTurnWay(const OpenCellTiles& tiles,
                                         Connectivity connectivity, Point a,
                                         Point b, double max_cost) {
  return FirstWayWithin(tiles, connectivity, a, b, CostLimit(max_cost),
                        std::nullopt);
}

std::optional<OneTurnWay> FindOneTurnWayNoDearer(
    const Grid& grid, Connectivity connectivity, Point a, Point b, double cost,
    std::optional<Direction> continues) {
  return FirstWayWithin(grid, connectivity, a, b, cost + 1e-12 * (1.0 + cost),
                        continues);
}

std::optional<double> AppendOneTurnPath(const Grid& grid,
                                        Connectivity connectivity, Point a,
                                        Point b, double max_cost,
                                        RunLengthPath* path) {
  const std::optional<OneTurnWay> way =
      FindOneTurnWay(grid, connectivity, a, b, max_cost);
  if (!way.has_value()) return std::nullopt;
  AppendOneTurnWay(*way, path);
  return way->cost;
}

void AppendOneTurnWay(const OneTurnWay& way, RunLengthPath* path) {
  for (int r = 0; r < way.count; ++r) {
    path->Append(way.runs[r].direction, way.runs[r].count);
  }
}

void OneTurnWaysFrom::Reset(Point anchor, const search_internal::OpenBits* bits,
                            const OpenCellTiles* tiles) {
  anchor_ = anchor;
  bits_ = bits;
  tiles_ = tiles;
  for (int q = 0; q < 4; ++q) {
    ray_[q] = 0;
    ray_ends_[q] = false;
  }
}

namespace {

// How many of up to `steps` moves in direction d from p are legal in a
// row, stepping cell by cell; `Cells` is the Grid or its OpenCellTiles.
template <typename Cells>
uint32_t LegalSteps(const Cells& cells, Connectivity connectivity, Point p,
                    Direction d, uint32_t steps) {
  uint32_t legal = 0;
  for (; legal < steps && CanStep(cells, p, d, connectivity); ++legal) {
    p = Step(p, d);
  }
  return legal;
}

}  // namespace

uint32_t OneTurnWaysFrom::StepByStep(Point p, Direction d,
                                     uint32_t steps) const {
  return tiles_ != nullptr ? LegalSteps(*tiles_, connectivity_, p, d, steps)
                           : LegalSteps(grid_, connectivity_, p, d, steps);
}

bool OneTurnWaysFrom::RunLegal(Point p, Direction d, uint32_t steps) const {
  if (bits_ != nullptr) return bits_->RunOpen(p, Dx(d), Dy(d), steps);
  return StepByStep(p, d, steps) == steps;
}

bool OneTurnWaysFrom::RayReaches(Direction d, uint32_t steps) {
  const int q = static_cast<int>(d) / 2;  // NE 1, SE 3, SW 5, NW 7
  if (ray_[q] >= steps || ray_ends_[q]) return ray_[q] >= steps;
  const Point at = {anchor_.x + Dx(d) * static_cast<int32_t>(ray_[q]),
                    anchor_.y + Dy(d) * static_cast<int32_t>(ray_[q])};
  const uint32_t wanted = steps - ray_[q];
  uint32_t reached = 0;
  if (bits_ != nullptr) {
    reached = bits_->DiagonalReach(at, Dx(d), Dy(d), wanted);
  } else {
    reached = StepByStep(at, d, wanted);
  }
  ray_[q] += reached;
  ray_ends_[q] = reached < wanted;
  return ray_[q] >= steps;
}

std::optional<OneTurnWay> OneTurnWaysFrom::To(
    Point b, std::optional<Direction> continues, double max_cost) {
  OneTurnWay way = RunsBetween(connectivity_, anchor_, b);
  way.cost = HeuristicCost(anchor_, b, connectivity_, grid_.min_cost());
  if (!(way.cost <= CostLimit(max_cost))) return std::nullopt;
  if (way.count == 0) return way;
  // The first run from the anchor: on 8 connectivity a diagonal one is a
  // prefix of the anchor's ray.
  const auto first_legal = [&](const Run& run) {
    return IsDiagonal(run.direction)
               ? RayReaches(run.direction, run.count)
               : RunLegal(anchor_, run.direction, run.count);
  };
  if (way.count == 1) {
    if (first_legal(way.runs[0])) return way;
    return std::nullopt;
  }
  const auto legal = [&](const Run& first, const Run& second) {
    const Point corner = {
        anchor_.x + Dx(first.direction) * static_cast<int32_t>(first.count),
        anchor_.y + Dy(first.direction) * static_cast<int32_t>(first.count)};
    return first_legal(first) &&
           RunLegal(corner, second.direction, second.count);
  };
  if (continues == way.runs[1].direction) std::swap(way.runs[0], way.runs[1]);
  if (legal(way.runs[0], way.runs[1])) return way;
  std::swap(way.runs[0], way.runs[1]);
  if (legal(way.runs[0], way.runs[1])) return way;
  return std::nullopt;
}

}  // namespace zonepath
