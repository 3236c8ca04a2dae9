#include "zonepath/search/zone_dijkstra.h"

#include <algorithm>
#include <limits>

#include "absl/time/clock.h"

namespace zonepath {
namespace {
struct EntryGreater {
  template <typename E>
  bool operator()(const E& a, const E& b) const {
    return a.g > b.g;
  }
};
}  // namespace

ZoneDijkstra::ZoneDijkstra(int32_t max_side)
    : max_side_(std::clamp(max_side, 1, 4096)),
      nodes_(static_cast<size_t>(max_side_) * max_side_, Node{0, 0, 0, 0, 0}) {}

void ZoneDijkstra::Run(const Grid& grid, Point source, const Rect& rect,
                       Connectivity connectivity,
                       absl::Span<const Point> targets) {
  const absl::Time begin = absl::Now();
  stats_ = SearchStats();
  rect_ = rect;
  if (++stamp_ == 0) {
    for (Node& n : nodes_) n.stamp = 0;
    stamp_ = 1;
  }
  open_.clear();
  size_t targets_left = targets.size();
  auto node = [&](Point p) -> Node& {
    Node& n = nodes_[Local(p)];
    if (n.stamp != stamp_) {
      n = Node{std::numeric_limits<double>::infinity(), stamp_, 0, 0, 0};
    }
    return n;
  };
  // Flag the targets on their nodes: an O(1) check per expansion.
  for (Point t : targets) {
    if (rect.Contains(t)) node(t).is_target = 1;
  }
  targets_left = 0;
  for (Point t : targets) {
    if (rect.Contains(t) && nodes_[Local(t)].is_target == 1) {
      nodes_[Local(t)].is_target = 2;  // count each distinct target once
      ++targets_left;
    }
  }
  node(source).g = 0;
  open_.push_back({0, Local(source)});
  while (!open_.empty()) {
    std::pop_heap(open_.begin(), open_.end(), EntryGreater());
    const Entry top = open_.back();
    open_.pop_back();
    ++stats_.heap_pops;
    const Point p{rect.x0 + static_cast<int32_t>(top.local % max_side_),
                  rect.y0 + static_cast<int32_t>(top.local / max_side_)};
    Node& n = nodes_[top.local];
    if (n.closed || top.g > n.g) continue;
    n.closed = 1;
    ++stats_.expanded;
    if (trace_ != nullptr) trace_->push_back(p);
    if (n.is_target != 0 && --targets_left == 0) break;
    const uint8_t p_cost = grid.cost(p);
    const uint8_t open = OpenDirections(grid, p, rect, connectivity);
    for (int d = 0; d < kDirectionCount; ++d) {
      if (!(open >> d & 1)) continue;
      const Direction dir = static_cast<Direction>(d);
      const Point q = Step(p, dir);
      const double g = top.g + StepCost(dir, p_cost, grid.cost(q));
      Node& m = node(q);
      if (g >= m.g) continue;
      m.g = g;
      m.parent = static_cast<uint8_t>(d);
      open_.push_back({g, Local(q)});
      std::push_heap(open_.begin(), open_.end(), EntryGreater());
      ++stats_.generated;
      ++stats_.heap_pushes;
    }
  }
  stats_.time = absl::Now() - begin;
}

double ZoneDijkstra::Distance(Point p) const {
  if (!rect_.Contains(p)) return std::numeric_limits<double>::infinity();
  const Node& n = nodes_[Local(p)];
  return n.stamp == stamp_ ? n.g : std::numeric_limits<double>::infinity();
}

void ZoneDijkstra::AppendPath(Point target, RunLengthPath* path) {
  reversed_.clear();
  const double cost = Distance(target);
  Point p = target;
  while (nodes_[Local(p)].g != 0) {
    const Direction d = static_cast<Direction>(nodes_[Local(p)].parent);
    reversed_.push_back(d);
    p = Step(p, Opposite(d));
  }
  for (auto it = reversed_.rbegin(); it != reversed_.rend(); ++it) {
    path->Append(*it);
  }
  path->AddCost(cost);
}

size_t ZoneDijkstra::MemoryUsage() const {
  return sizeof(*this) + nodes_.capacity() * sizeof(Node) +
         open_.capacity() * sizeof(Entry) +
         reversed_.capacity() * sizeof(Direction);
}

}  // namespace zonepath
