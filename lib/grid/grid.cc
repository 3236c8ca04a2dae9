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
  grid.costs_ = CowArray<uint8_t>::FromVector(costs);
  grid.CountCosts();
  grid.ComputeComponents();
  return grid;
}

Grid Grid::WithCosts(const std::vector<CellCost>& changes) const {
  Grid grid;
  grid.width_ = width_;
  grid.height_ = height_;
  grid.costs_ = costs_;
  grid.components_ = components_;
  grid.component_count_ = component_count_;
  // Cells whose passability flips are relabelled one at a time, in order,
  // each seeing the grid as the earlier changes left it.
  bool relabel_all = false;
  grid.cost_counts_ = cost_counts_;
  for (const CellCost& c : changes) {
    uint8_t& cost = grid.costs_.Mutable(c.cell.value());
    const bool was_passable = cost != kBlocked;
    --grid.cost_counts_[cost];
    ++grid.cost_counts_[c.cost];
    cost = c.cost;
    if (was_passable == (c.cost != kBlocked) || relabel_all) continue;
    relabel_all =
        !grid.UpdateComponentsLocally(c.cell.value(), c.cost != kBlocked);
  }
  grid.SummariseCosts();
  if (relabel_all) grid.ComputeComponents();
  return grid;
}

bool Grid::UpdateComponentsLocally(uint32_t i, bool now_passable) {
  const Point p = ToPoint(CellIndex(i));
  if (now_passable) {
    // Joins its open orthogonal neighbours' component, or starts a new one.
    uint32_t label = kNoComponent;
    for (Direction d :
         {Direction::kN, Direction::kE, Direction::kS, Direction::kW}) {
      const Point q = Step(p, d);
      if (!PassableOrFalse(q)) continue;
      const uint32_t l = component(q);
      if (label != kNoComponent && l != label) return false;  // a merge
      label = l;
    }
    components_.Set(i, label != kNoComponent ? label : component_count_++);
    return true;
  }
  // Blocked: the open orthogonal neighbours stay connected if they all lie
  // on one unbroken open stretch of the 8 cells around p (consecutive ring
  // cells are orthogonal neighbours of each other). Nothing to relabel then:
  // component() answers kNoComponent for blocked cells.
  static constexpr Direction kRing[8] = {
      Direction::kN, Direction::kNE, Direction::kE, Direction::kSE,
      Direction::kS, Direction::kSW, Direction::kW, Direction::kNW};
  bool open[8];
  int open_count = 0;
  for (int k = 0; k < 8; ++k) {
    open[k] = PassableOrFalse(Step(p, kRing[k]));
    open_count += open[k];
  }
  if (open_count == 8) return true;
  // Count the open stretches that contain an orthogonal neighbour.
  int stretches_with_neighbour = 0;
  for (int k = 0; k < 8; ++k) {
    if (!open[k] || open[(k + 7) % 8]) continue;  // not a stretch's start
    bool has_neighbour = false;
    for (int j = k; open[j % 8] && j < k + 8; ++j) {
      has_neighbour = has_neighbour || (j % 2 == 0);
    }
    stretches_with_neighbour += has_neighbour;
  }
  return stretches_with_neighbour <= 1;
}

void Grid::CountCosts() {
  cost_counts_.assign(256, 0);
  costs_.ForEachPage([&](const uint8_t* data, size_t n) {
    for (size_t i = 0; i < n; ++i) ++cost_counts_[data[i]];
  });
  SummariseCosts();
}

void Grid::SummariseCosts() {
  passable_count_ = cell_count() - cost_counts_[kBlocked];
  min_cost_ = 1;
  for (int c = 1; c < 256; ++c) {
    if (cost_counts_[c] > 0) {
      min_cost_ = static_cast<uint8_t>(c);
      break;
    }
  }
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
  const std::vector<uint8_t> costs = costs_.ToVector();
  std::vector<uint32_t> parent(n, kNoComponent);
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
    if (costs[i] == kBlocked) continue;
    parent[i] = i;
    const uint32_t x = i % w;
    if (x > 0 && costs[i - 1] != kBlocked) unite(i, i - 1);
    if (i >= w && costs[i - w] != kBlocked) unite(i, i - w);
  }
  uint32_t next = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (costs[i] == kBlocked) continue;
    if (parent[i] == i) {
      parent[i] = next++;
    } else {
      parent[i] = parent[parent[i]];
    }
  }
  component_count_ = next;
  components_ = CowArray<uint32_t>::FromVector(parent);
}

size_t Grid::MemoryUsage() const {
  return sizeof(*this) + cost_counts_.capacity() * sizeof(int64_t) +
         costs_.MemoryUsage() + components_.MemoryUsage();
}

size_t Grid::OwnedBytes() const {
  return costs_.OwnedBytes() + components_.OwnedBytes();
}

}  // namespace zonepath
