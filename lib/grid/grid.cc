#include "zonepath/grid/grid.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "zonepath/base/status_macros.h"

namespace zonepath {

absl::Status Grid::CheckSize(int64_t width, int64_t height) {
  if (width < 1 || height < 1) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "grid size %dx%d: width and height must be at least 1", width, height));
  }
  if (width > kMaxSide || height > kMaxSide) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "grid size %dx%d: a side may be at most %d", width, height, kMaxSide));
  }
  if (width * height > kMaxCells) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "grid size %dx%d: more than %d cells", width, height, kMaxCells));
  }
  return absl::OkStatus();
}

absl::StatusOr<Grid> Grid::Create(int64_t width, int64_t height,
                                  std::vector<uint8_t> costs) {
  RETURN_IF_ERROR(CheckSize(width, height));
  if (static_cast<int64_t>(costs.size()) != width * height) {
    return absl::InvalidArgumentError(
        absl::StrFormat("grid size %dx%d needs %d costs, got %d", width, height,
                        width * height, costs.size()));
  }
  Grid grid;
  grid.width_ = static_cast<int32_t>(width);
  grid.height_ = static_cast<int32_t>(height);
  grid.costs_ = std::move(costs);
  grid.ComputeCostSummary();
  grid.ComputeComponents();
  return grid;
}

Grid Grid::WithCosts(const std::vector<CellCost>& changes) const {
  Grid grid;
  grid.width_ = width_;
  grid.height_ = height_;
  grid.costs_ = costs_;
  bool passability_changed = false;
  for (const CellCost& c : changes) {
    uint8_t& cost = grid.costs_[c.cell.value()];
    if ((cost == kBlocked) != (c.cost == kBlocked)) passability_changed = true;
    cost = c.cost;
  }
  grid.ComputeCostSummary();
  if (passability_changed) {
    grid.ComputeComponents();
  } else {
    grid.components_ = components_;
    grid.component_count_ = component_count_;
  }
  return grid;
}

void Grid::ComputeCostSummary() {
  uint8_t min_cost = 255;
  int64_t passable = 0;
  for (uint8_t c : costs_) {
    if (c != kBlocked) {
      ++passable;
      min_cost = std::min(min_cost, c);
    }
  }
  passable_count_ = passable;
  min_cost_ = passable > 0 ? min_cost : 1;
}

// Two-pass labelling with union-find stored in the label array itself.
// Pass 1 links each passable cell to its passable W and N neighbours, always
// making the smaller index the parent, so parent <= child everywhere. Pass 2
// walks cells in increasing order: a root gets the next compact id; any other
// cell copies the (already final) label of its parent. No extra memory.
// Orthogonal links suffice: a diagonal step needs both orthogonal neighbours
// passable, so 8- and 4-connected components are the same.
void Grid::ComputeComponents() {
  const uint32_t w = static_cast<uint32_t>(width_);
  const uint32_t n = static_cast<uint32_t>(cell_count());
  components_.assign(n, kNoComponent);
  std::vector<uint32_t>& parent = components_;
  auto find = [&parent](uint32_t x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  auto unite = [&](uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (a < b) {
      parent[b] = a;
    } else {
      parent[a] = b;
    }
  };
  for (uint32_t i = 0; i < n; ++i) {
    if (costs_[i] == kBlocked) continue;
    parent[i] = i;
    const uint32_t x = i % w;
    if (x > 0 && costs_[i - 1] != kBlocked) unite(i, i - 1);
    if (i >= w && costs_[i - w] != kBlocked) unite(i, i - w);
  }
  uint32_t next = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (costs_[i] == kBlocked) continue;
    if (parent[i] == i) {
      components_[i] = next++;
    } else {
      components_[i] = components_[parent[i]];
    }
  }
  component_count_ = next;
}

size_t Grid::MemoryUsage() const {
  return sizeof(*this) + costs_.capacity() * sizeof(uint8_t) +
         components_.capacity() * sizeof(uint32_t);
}

}  // namespace zonepath
