// ZoneDijkstra: exact one-to-many Dijkstra inside a small rectangle (a zone),
// and an exact A* to one target (RunLoadedTo).
//
// Used offline to cost the edges between a zone's beacons, and at runtime to
// connect a query's start and goal to the beacons of their zone (Dijkstra)
// and to search the smoother's weighted windows (A*). Each run
// copies the rectangle's costs into a local array with a blocked border, so
// the inner loop needs no bounds checks and no page lookups. Scratch arrays
// are sized once for the largest rectangle (max_side x max_side) and reset
// by generation stamp, so warm runs allocate nothing.
//
// The Dijkstra's queue is a ring of buckets of width delta = the cheapest step
// in the rectangle (its cheapest cell cost), not a binary heap: a cell settled
// from bucket k reaches its neighbours at g + step >= g + delta, i.e. in a
// later bucket, so when bucket k is reached every cell in it already has its
// final distance and the cells of one bucket may be settled in any order
// (Dial's algorithm with buckets as wide as the cheapest edge). Every queue
// operation is O(1); the distances are Dijkstra's (the same bits as with the
// heap on every world compared, see the README). A step costs at
// most 255 * sqrt(2) < 361 buckets, so 512 buckets always suffice.
//
//   ZoneDijkstra dijkstra(/*max_side=*/64);
//   dijkstra.Run(grid, source, zone_rect, Connectivity::kEight, targets);
//   double d = dijkstra.Distance(target);   // +inf if unreachable in zone
//   dijkstra.AppendPath(target, &path);     // appends source -> target moves
#ifndef ZONEPATH_SEARCH_ZONE_DIJKSTRA_H_
#define ZONEPATH_SEARCH_ZONE_DIJKSTRA_H_

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/types/span.h"
#include "zonepath/grid/grid.h"
#include "zonepath/grid/moves.h"
#include "zonepath/grid/path.h"
#include "zonepath/search/row_spans.h"
#include "zonepath/search/search_stats.h"

namespace zonepath {

class ZoneDijkstra {
 public:
  // Rectangles up to max_side x max_side cells (max_side in 1..4096).
  explicit ZoneDijkstra(int32_t max_side);

  // Distances from `source` (passable, inside `rect`) to cells of `rect`.
  // Stops once every cell in `targets` is settled (all of rect if empty).
  // Requires rect.width(), rect.height() <= max_side.
  void Run(const Grid& grid, Point source, const Rect& rect,
           Connectivity connectivity, absl::Span<const Point> targets = {});
  // Run in two parts, for several searches in one rectangle: LoadRect
  // copies its costs (once), RunLoaded searches the copy (as Run would, on
  // the grid as it was when loaded). With a corridor, cells outside it
  // count as blocked (the smoother's band on weighted grids).
  void LoadRect(const Grid& grid, const Rect& rect,
                const RowSpans* corridor = nullptr);
  void RunLoaded(Point source, Connectivity connectivity,
                 absl::Span<const Point> targets = {});
  // The least cost from `source` to one `target` of the loaded rect, by A*:
  // - h bounds a way's cost by the cheapest open cell of each row and
  //   column it must cross, the two sums combined as the octile distance
  //   combines dx and dy (summed when 4-connected). It is never below the
  //   rect's cheapest cost times the octile distance, and far above it
  //   where that cost is a stretch of road off the way.
  // - The queue is buckets of f, a quarter of the cheapest cost wide; a
  //   cell is settled again when it is reached more cheaply later (a
  //   bucket's cells come out in no order of f); entries no cheaper than
  //   the way found are dropped.
  // Distance(target) and AppendPath(target) are then RunLoaded's costs (to
  // 1e-12 relative: a way cheaper by less is not sought), having settled
  // only cells whose f is below the target's cost (the smoother's weighted
  // windows and the refiner's weighted edges; README, "Weighted windows by
  // A*"). Other cells' Distance is a way's cost, not always the least.
  // Either endpoint outside the rect or blocked in the copy:
  // Distance(target) is +inf.
  // `below` (>= 0; a negative one counts as 0): only ways cheaper than it
  // are sought (a path's cost already known); if there is none,
  // Distance(target) is +inf.
  void RunLoadedTo(Point source, Point target, Connectivity connectivity,
                   double below = std::numeric_limits<double>::infinity());

  // Cost from the source to p (+inf if not reached).
  double Distance(Point p) const;
  // Appends the moves of the found path from the source to `target` (which
  // must have a finite Distance) to `path`, and adds their cost (summed in
  // walking order). With prefer_straight, walking back from the target
  // keeps going straight wherever the cell behind was settled (after
  // RunLoadedTo: expanded at least once) just as cheaply (to 1e-12
  // relative; GridAStar's prefer_straight does the same exactly): of the
  // equally short ways, one with fewer runs. Any finite g is the cost of a
  // real way there, so the walked cost never exceeds the target's.
  void AppendPath(Point target, RunLengthPath* path,
                  bool prefer_straight = false);

  const SearchStats& stats() const { return stats_; }
  // Appends every expanded cell to `expanded` (null: off). For pictures and
  // debugging: it allocates.
  void set_trace(std::vector<Point>* expanded) { trace_ = expanded; }
  int32_t max_side() const { return max_side_; }
  size_t MemoryUsage() const;

 private:
  struct Node {
    double g;
    uint32_t stamp;
    uint8_t parent;
    uint8_t closed;
    uint8_t is_target;
  };
  // A queued cell; bucket lists are chained through `next` (entries of
  // cells that were improved or settled since are skipped when popped).
  struct Entry {
    uint32_t local;
    uint32_t next;
  };
  // RunLoadedTo's queue entries: g when queued tells a stale entry (the
  // cell was reached more cheaply since).
  struct GEntry {
    double g;
    uint32_t local;
    uint32_t next;
  };
  // RunLoaded: > 255 * sqrt(2) + 2 buckets of width the cheapest cost m
  // (a step's cost over m, one more for rounding down).
  static constexpr uint32_t kBuckets = 512;
  // RunLoadedTo: buckets of m / kToBucketsPerCost; a step of mean cost c
  // raises f by at most its cost plus h's rise, each at most c sqrt(2)
  // (BoundsToTarget), i.e. < 2 * 255 * sqrt(2) * 4 + 2 < 2888 buckets.
  static constexpr double kToBucketsPerCost = 4;
  static constexpr uint32_t kToBuckets = 4096;
  static constexpr uint32_t kNoEntry = 0xFFFFFFFFu;
  // Index in the padded local arrays (row stride max_side_ + 2).
  uint32_t Local(Point p) const {
    return static_cast<uint32_t>((p.y - rect_.y0 + 1) * stride_ +
                                 (p.x - rect_.x0 + 1));
  }
  // Whether the step from open local cell u in direction d enters an open
  // cell and, for a diagonal, passes two open ones (moves.h; the blocked
  // frame keeps every read inside the arrays).
  bool StepOpen(uint32_t u, int d) const {
    const auto open = [&](int k) {
      return costs_[static_cast<uint32_t>(static_cast<int32_t>(u) +
                                          offset_[k])] != 0;
    };
    return open(d) && ((d & 1) == 0 || (open(d - 1) && open((d + 1) & 7)));
  }
  // The open steps from open local cell u as bits in Direction order
  // (StepOpen's rule, each neighbour read once): a diagonal needs both its
  // sides open (NE: N and E, bits 0 and 2; SE: E and S; SW; NW).
  // `cost` is costs_.data(), held by the caller (a byte store into a node
  // could alias costs_'s own pointer, which the loop would then reload).
  uint32_t OpenSteps(const uint8_t* cost, uint32_t u, bool diagonals) const {
    const auto is_open = [&](int d) {
      return cost[static_cast<uint32_t>(static_cast<int32_t>(u) +
                                        offset_[d])] != 0;
    };
    uint32_t steps = (is_open(0) ? 1u : 0u) | (is_open(2) ? 4u : 0u) |
                     (is_open(4) ? 16u : 0u) | (is_open(6) ? 64u : 0u);
    if (diagonals) {
      const uint32_t sides = steps;
      if ((sides & 0x05u) == 0x05u && is_open(1)) steps |= 1u << 1;
      if ((sides & 0x14u) == 0x14u && is_open(3)) steps |= 1u << 3;
      if ((sides & 0x50u) == 0x50u && is_open(5)) steps |= 1u << 5;
      if ((sides & 0x41u) == 0x41u && is_open(7)) steps |= 1u << 7;
    }
    return steps;
  }
  // RunLoadedTo's lower bounds to the target (local tx, ty) from each
  // column and row of the copy: col_to_target_[x] bounds the cost of any
  // way from column x to column tx (by the cheapest open cell of each
  // column crossed), row_to_target_[y] likewise.
  void BoundsToTarget(int32_t tx, int32_t ty);
  // Starts a run: every node's state is stale (a new stamp).
  void NewRun();
  // Local cell's node, reset to unreached if it is stale.
  Node& Touch(uint32_t local) {
    Node& n = nodes_[local];
    if (n.stamp != stamp_) {
      n = Node{std::numeric_limits<double>::infinity(), stamp_, 0, 0, 0};
    }
    return n;
  }
  Point CellOf(uint32_t local) const {
    return {rect_.x0 + static_cast<int32_t>(local % stride_) - 1,
            rect_.y0 + static_cast<int32_t>(local / stride_) - 1};
  }

  int32_t max_side_;
  int32_t stride_;
  std::vector<uint8_t> costs_;  // padded local copy; 0 = blocked / outside
  std::vector<Node> nodes_;
  std::vector<Entry> open_;                  // every entry of the current run
  std::vector<uint32_t> bucket_head_;        // kBuckets heads into open_
  std::vector<GEntry> to_open_;              // every entry of RunLoadedTo's run
  std::vector<uint32_t> to_bucket_head_;     // kToBuckets heads into to_open_
  std::vector<uint8_t> col_least_less_one_;  // BoundsToTarget's scratch
  std::vector<double> col_to_target_;        // per local column
  std::vector<double> row_to_target_;        // per local row
  // Local index offsets of the neighbours in Direction order (N, NE, E,
  // SE, S, SW, W, NW).
  std::array<int32_t, kDirectionCount> offset_;
  uint8_t min_cost_ = 1;  // cheapest cell of the loaded rect
  std::vector<Direction> reversed_;
  uint32_t stamp_ = 0;
  Rect rect_;
  SearchStats stats_;
  std::vector<Point>* trace_ = nullptr;
};

}  // namespace zonepath

#endif  // ZONEPATH_SEARCH_ZONE_DIJKSTRA_H_
