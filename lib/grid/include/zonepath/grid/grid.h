// Grid: an immutable width x height terrain map with its connected components.
//
// Each cell holds one byte: 0 = blocked, 1..255 = the terrain cost multiplier
// (1 for plain ground). One byte per cell plus a 4-byte component label keeps
// a 32768 x 32768 world at 5 GiB. Components are computed once, when the grid
// is made, so "can A reach B?" is an O(1) comparison of two labels.
//
//   std::vector<uint8_t> costs(w * h, 1);
//   costs[5] = kBlocked;
//   ASSIGN_OR_RETURN(Grid grid, Grid::Create(w, h, std::move(costs)));
//   if (!grid.SameComponent(a, b)) { /* unreachable, no search needed */ }
#ifndef ZONEPATH_GRID_GRID_H_
#define ZONEPATH_GRID_GRID_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "zonepath/base/cow_array.h"
#include "zonepath/grid/geometry.h"

namespace zonepath {

inline constexpr uint8_t kBlocked = 0;

class Grid {
 public:
  // Limits: each side in [1, kMaxSide], and at most kMaxCells cells in all
  // (so a CellIndex fits in 32 bits with one value left for "invalid").
  static constexpr int64_t kMaxSide = 1 << 16;
  static constexpr int64_t kMaxCells = (int64_t{1} << 32) - 2;
  // Label of a blocked cell in component_labels().
  static constexpr uint32_t kNoComponent = 0xFFFFFFFFu;

  // Validates the size and that costs.size() == width * height, then computes
  // the connected components.
  static absl::StatusOr<Grid> Create(int64_t width, int64_t height,
                                     std::vector<uint8_t> costs);
  // Checks a width and height against the limits (used by readers before
  // they allocate anything).
  static absl::Status CheckSize(int64_t width, int64_t height);

  // A copy with some cells' costs replaced (cells must be in bounds; a later
  // entry for the same cell wins). Both grids share every page of costs and
  // labels (CowArray) that the changes do not touch. Labels stay shared
  // while no label changes: cost changes, and blocking a cell whose open
  // neighbours stay connected around it. Opening a cell next to one
  // component writes one label; anything else (a possible split or merge)
  // labels the whole grid again.
  struct CellCost {
    CellIndex cell;
    uint8_t cost;
  };
  Grid WithCosts(const std::vector<CellCost>& changes) const;

  Grid() = default;
  Grid(Grid&&) = default;
  Grid& operator=(Grid&&) = default;
  Grid(const Grid&) = default;
  Grid& operator=(const Grid&) = default;

  int32_t width() const { return width_; }
  int32_t height() const { return height_; }
  int64_t cell_count() const { return int64_t{width_} * height_; }
  Rect bounds() const { return {0, 0, width_, height_}; }

  bool InBounds(Point p) const {
    return p.x >= 0 && p.y >= 0 && p.x < width_ && p.y < height_;
  }
  CellIndex Index(Point p) const {
    return CellIndex(static_cast<uint32_t>(p.y) *
                         static_cast<uint32_t>(width_) +
                     static_cast<uint32_t>(p.x));
  }
  Point ToPoint(CellIndex c) const {
    return {static_cast<int32_t>(c.value() % static_cast<uint32_t>(width_)),
            static_cast<int32_t>(c.value() / static_cast<uint32_t>(width_))};
  }

  // Requires InBounds(p).
  uint8_t cost(Point p) const { return costs_[Index(p).value()]; }
  uint8_t cost(CellIndex c) const { return costs_[c.value()]; }
  bool passable(Point p) const { return cost(p) != kBlocked; }
  // Out-of-bounds cells count as blocked.
  bool PassableOrFalse(Point p) const { return InBounds(p) && passable(p); }

  // Smallest cost of a passable cell (1 if there is none); heuristics scale
  // by it so that they stay admissible on weighted worlds.
  uint8_t min_cost() const { return min_cost_; }
  int64_t passable_count() const { return passable_count_; }

  // Component label of a cell, or kNoComponent if blocked. Two passable cells
  // reach each other (8- or 4-connected alike, since diagonal moves may not
  // cut corners) exactly when their labels are equal.
  uint32_t component(Point p) const {
    return passable(p) ? components_[Index(p).value()] : kNoComponent;
  }
  bool SameComponent(Point a, Point b) const {
    uint32_t ca = component(a);
    return ca != kNoComponent && ca == component(b);
  }
  // Labels are < component_count(). Exact count for a grid made by Create;
  // after WithCosts some labels may have fallen out of use.
  uint32_t component_count() const { return component_count_; }

  // All costs, row by row (a copy: O(cells)).
  std::vector<uint8_t> CostVector() const { return costs_.ToVector(); }

  // Bytes held by this grid (cost and component arrays, shared pages
  // included) and the part of them this grid wrote itself rather than
  // sharing with the grid it was made from.
  size_t MemoryUsage() const;
  size_t OwnedBytes() const;

 private:
  void CountCosts();      // cost_counts_ from scratch, then SummariseCosts
  void SummariseCosts();  // passable_count_ and min_cost_ from cost_counts_
  void ComputeComponents();
  // Updates labels for cell i turning blocked or passable (costs_ already
  // changed); false if only a full ComputeComponents can tell.
  bool UpdateComponentsLocally(uint32_t i, bool now_passable);

  int32_t width_ = 0;
  int32_t height_ = 0;
  CowArray<uint8_t> costs_;
  // Per cell; entries of blocked cells are meaningless.
  CowArray<uint32_t> components_;
  uint32_t component_count_ = 0;
  // Cells per cost value: keeps passable_count_ and min_cost_ exact under
  // WithCosts without a scan of the grid.
  std::vector<int64_t> cost_counts_;
  int64_t passable_count_ = 0;
  uint8_t min_cost_ = 1;
};

}  // namespace zonepath

#endif  // ZONEPATH_GRID_GRID_H_
