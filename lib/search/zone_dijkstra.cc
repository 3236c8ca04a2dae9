#include "zonepath/search/zone_dijkstra.h"

#include <algorithm>
#include <bit>
#include <limits>

#include "absl/time/clock.h"

namespace zonepath {

ZoneDijkstra::ZoneDijkstra(int32_t max_side)
    : max_side_(std::clamp(max_side, 1, 4096)),
      stride_(max_side_ + 2),
      costs_(static_cast<size_t>(stride_) * stride_, 0),
      nodes_(static_cast<size_t>(stride_) * stride_, Node{0, 0, 0, 0, 0}),
      bucket_head_(kBuckets, kNoEntry),
      to_bucket_head_(kToBuckets, kNoEntry),
      col_least_less_one_(static_cast<size_t>(max_side_), 0),
      col_to_target_(static_cast<size_t>(max_side_), 0.0),
      row_to_target_(static_cast<size_t>(max_side_), 0.0),
      offset_{-stride_, -stride_ + 1, 1,  stride_ + 1,
              stride_,  stride_ - 1,  -1, -stride_ - 1} {}

void ZoneDijkstra::Run(const Grid& grid, Point source, const Rect& rect,
                       Connectivity connectivity,
                       absl::Span<const Point> targets) {
  const absl::Time begin = absl::Now();
  LoadRect(grid, rect);
  RunLoaded(source, connectivity, targets);
  stats_.time = absl::Now() - begin;  // the copy included
}

void ZoneDijkstra::LoadRect(const Grid& grid, const Rect& rect,
                            const RowSpans* corridor) {
  rect_ = rect;
  // The rectangle's costs, framed by blocked cells (the frame's cells stay
  // 0 from construction; rows and columns past a smaller rect are zeroed),
  // and blocked outside the corridor if there is one. Rows are copied a
  // page span at a time.
  const int32_t w = rect.width(), h = rect.height();
  uint8_t least_less_one = 254;  // min_cost_ 255 when nothing is open
  for (int32_t y = 0; y < h; ++y) {
    uint8_t* row = &costs_[static_cast<size_t>(y + 1) * stride_ + 1];
    int32_t x_begin = rect.x0, x_end = rect.x1;
    if (corridor != nullptr) {
      const int64_t i = int64_t{rect.y0} + y - corridor->y0;
      if (i < 0 || i >= static_cast<int64_t>(corridor->lo.size())) {
        x_end = x_begin;
      } else {
        x_begin = std::max(x_begin, corridor->lo[static_cast<size_t>(i)]);
        x_end = static_cast<int32_t>(std::min<int64_t>(
            x_end, int64_t{corridor->hi[static_cast<size_t>(i)]} + 1));
      }
    }
    std::fill_n(row, w + 1, uint8_t{0});  // row[w] frames the row
    if (x_begin >= x_end) continue;
    uint8_t* out = row + (x_begin - rect.x0);
    grid.ForEachCostSpanInRow(
        rect.y0 + y, x_begin, x_end, [&](const uint8_t* data, size_t n) {
          std::copy_n(data, n, out);
          // The least open cost, as the least of
          // cost - 1 with blocked (0) wrapping to
          // 255: no branch, so it vectorises.
          for (size_t k = 0; k < n; ++k) {
            least_less_one = std::min<uint8_t>(
                least_less_one, static_cast<uint8_t>(data[k] - 1));
          }
          out += n;
        });
  }
  min_cost_ = static_cast<uint8_t>(least_less_one + 1);
  std::fill_n(&costs_[static_cast<size_t>(h + 1) * stride_], w + 2, 0);
}

void ZoneDijkstra::RunLoaded(Point source, Connectivity connectivity,
                             absl::Span<const Point> targets) {
  const absl::Time begin = absl::Now();
  stats_ = SearchStats();
  const Rect& rect = rect_;
  NewRun();
  open_.clear();
  // Flag the targets on their nodes: an O(1) check per expansion.
  size_t targets_left = 0;
  for (Point t : targets) {
    if (!rect.Contains(t)) continue;
    Node& n = Touch(Local(t));
    if (n.is_target == 0) {
      n.is_target = 1;  // count each distinct target once
      ++targets_left;
    }
  }
  const bool diagonals = connectivity == Connectivity::kEight;
  const uint8_t* cost = costs_.data();
  // Bucket of a distance. The width is the cheapest step shrunk by 1e-9,
  // so that rounding in g (relative error ~1e-16) cannot put a neighbour
  // into the bucket it was reached from while g / width < ~1e6 (a zone's
  // distances are far below; past that the clamp in push keeps the order
  // right up to rounding, as a heap would).
  const double inv_width = 1.0 / (min_cost_ * (1.0 - 1e-9));
  auto bucket_of = [&](double g) {
    return static_cast<uint64_t>(g * inv_width);
  };
  std::fill(bucket_head_.begin(), bucket_head_.end(), kNoEntry);
  size_t queued = 0;
  auto push = [&](uint32_t local, uint64_t bucket) {
    uint32_t& head = bucket_head_[bucket % kBuckets];
    open_.push_back({local, head});
    head = static_cast<uint32_t>(open_.size() - 1);
    ++queued;
    ++stats_.heap_pushes;
  };
  Touch(Local(source)).g = 0;
  uint64_t current = 0;
  push(Local(source), 0);
  while (queued > 0) {
    uint32_t* head = &bucket_head_[current % kBuckets];
    while (*head == kNoEntry) {
      head = &bucket_head_[++current % kBuckets];
    }
    const uint32_t u = open_[*head].local;
    *head = open_[*head].next;
    --queued;
    ++stats_.heap_pops;
    Node& n = nodes_[u];
    if (n.closed) continue;  // a stale entry: settled from an earlier one
    n.closed = 1;
    ++stats_.expanded;
    if (trace_ != nullptr) trace_->push_back(CellOf(u));
    if (n.is_target != 0 && --targets_left == 0) break;
    const double g_u = n.g;
    const uint8_t u_cost = cost[u];
    for (uint32_t steps = OpenSteps(cost, u, diagonals); steps != 0;
         steps &= steps - 1) {
      const int d = std::countr_zero(steps);
      const uint32_t v =
          static_cast<uint32_t>(static_cast<int32_t>(u) + offset_[d]);
      Node& m = Touch(v);
      if (m.closed) continue;  // settled: no step can improve it
      const uint8_t v_cost = cost[v];
      const double g =
          g_u + StepCost(static_cast<Direction>(d), u_cost, v_cost);
      if (g >= m.g) continue;
      m.g = g;
      m.parent = static_cast<uint8_t>(d);
      // Never behind the bucket being emptied (it cannot be, see above).
      push(v, std::max(current, bucket_of(g)));
      ++stats_.generated;
    }
  }
  stats_.time = absl::Now() - begin;
}

void ZoneDijkstra::RunLoadedTo(Point source, Point target,
                               Connectivity connectivity, double below) {
  const absl::Time begin = absl::Now();
  stats_ = SearchStats();
  NewRun();
  to_open_.clear();
  // An endpoint outside the rect, or blocked in the copy (outside the
  // corridor too): +inf, without flooding the rect (and never a way from a
  // blocked cell).
  if (!rect_.Contains(target) || !rect_.Contains(source) ||
      costs_[Local(target)] == 0 || costs_[Local(source)] == 0) {
    stats_.time = absl::Now() - begin;
    return;
  }
  const bool diagonals = connectivity == Connectivity::kEight;
  const uint8_t* cost = costs_.data();
  const uint32_t t = Local(target);
  const int32_t tx = target.x - rect_.x0, ty = target.y - rect_.y0;
  BoundsToTarget(tx, ty);
  const double* col_h = col_to_target_.data();
  const double* row_h = row_to_target_.data();
  // h in the rect's coordinates (x, y from 0): consistent (BoundsToTarget),
  // and never below the rect's cheapest cost times the octile distance.
  const auto h = [&](int32_t x, int32_t y) {
    const double cb = col_h[x], rb = row_h[y];
    if (!diagonals) return cb + rb;
    return std::max(cb, rb) + (kSqrt2 - 1.0) * std::min(cb, rb);
  };
  const double least = min_cost_;
  // Buckets of f, a quarter of the cheapest step wide (shrunk as
  // RunLoaded's are): fewer cells come out of a bucket before a cell of
  // lower f, to be settled again (terrain 1024²: 3.73 M -> 3.61 M
  // instructions a smoothed query; an eighth or a sixteenth did no better).
  const double inv_width = kToBucketsPerCost / (least * (1.0 - 1e-9));
  const auto bucket_of = [&](double f) {
    return static_cast<uint64_t>(f * inv_width);
  };
  // The ring is empty between runs (emptied below, from `current` to the
  // last bucket pushed).
  uint32_t* const ring = to_bucket_head_.data();
  size_t queued = 0;
  uint64_t last_pushed = 0;
  const auto push = [&](uint32_t local, double g, uint64_t bucket) {
    uint32_t& head = ring[bucket % kToBuckets];
    to_open_.push_back({g, local, head});
    head = static_cast<uint32_t>(to_open_.size() - 1);
    last_pushed = std::max(last_pushed, bucket);
    ++queued;
    ++stats_.heap_pushes;
  };
  const uint32_t s = Local(source);
  Touch(s).g = 0;
  uint64_t current = bucket_of(h(source.x - rect_.x0, source.y - rect_.y0));
  push(s, 0.0, current);
  // A way whose f is not below `enough` is no cheaper than one known:
  // never queued, nor expanded if queued before. Once the target is
  // reached, `enough` is its cost less 1e-12 of it (f's rounding). Once
  // the buckets up to `enough`'s are empty, no entry left can lead to the
  // target more cheaply.
  double enough = below;
  uint64_t found_bucket = below < std::numeric_limits<double>::infinity()
                              ? bucket_of(std::max(0.0, below))
                              : std::numeric_limits<uint64_t>::max();
  while (queued > 0) {
    uint32_t* head = &ring[current % kToBuckets];
    while (*head == kNoEntry) {
      head = &ring[++current % kToBuckets];
    }
    if (current > found_bucket) break;
    const GEntry e = to_open_[*head];
    *head = e.next;
    --queued;
    ++stats_.heap_pops;
    Node& n = nodes_[e.local];
    if (e.g != n.g) continue;  // stale: reached more cheaply since
    const uint32_t u = e.local;
    if (u == t) continue;
    const Point cu = CellOf(u);
    const int32_t ux = cu.x - rect_.x0, uy = cu.y - rect_.y0;
    // Queued before the target was reached, and leading to it no more
    // cheaply (on ground of one cost, the cells that tie with the way found
    // would otherwise all be settled).
    if (e.g + h(ux, uy) >= enough) continue;
    n.closed = 1;
    ++stats_.expanded;
    if (trace_ != nullptr) trace_->push_back(cu);
    const double g_u = n.g;
    const uint8_t u_cost = cost[u];
    for (uint32_t steps = OpenSteps(cost, u, diagonals); steps != 0;
         steps &= steps - 1) {
      const int d = std::countr_zero(steps);
      const uint32_t v =
          static_cast<uint32_t>(static_cast<int32_t>(u) + offset_[d]);
      Node& m = Touch(v);
      const double g =
          g_u + StepCost(static_cast<Direction>(d), u_cost, cost[v]);
      if (g >= m.g) continue;
      const Point step = Step(Point{ux, uy}, static_cast<Direction>(d));
      const double f = g + h(step.x, step.y);
      if (f >= enough) continue;  // cannot lead to the target more cheaply
      m.g = g;
      m.parent = static_cast<uint8_t>(d);
      if (v == t) {
        found_bucket = bucket_of(g);
        enough = g * (1.0 - 1e-12);
      }
      // Never behind the bucket being emptied (f never falls along a step,
      // but an entry may sit later than its f: the clamp).
      push(v, g, std::max(current, bucket_of(f)));
      ++stats_.generated;
    }
  }
  // Buckets before `current` are empty; those from it to the last pushed
  // may hold entries left when the search stopped.
  for (uint64_t b = current; b <= last_pushed; ++b)
    ring[b % kToBuckets] = kNoEntry;
  stats_.time = absl::Now() - begin;
}

void ZoneDijkstra::BoundsToTarget(int32_t tx, int32_t ty) {
  // The cheapest open cell of each row and column of the copy, as the least
  // of cost - 1 with blocked (0) wrapping to 255 (no branch; a row or column
  // with no open cell gets 255, and no way crosses it).
  const int32_t w = rect_.width(), h = rect_.height();
  uint8_t* col_least = col_least_less_one_.data();
  std::fill_n(col_least, w, uint8_t{254});
  for (int32_t y = 0; y < h; ++y) {
    const uint8_t* row = &costs_[static_cast<size_t>(y + 1) * stride_ + 1];
    uint8_t least = 254;
    for (int32_t x = 0; x < w; ++x) {
      const uint8_t c = static_cast<uint8_t>(row[x] - 1);
      least = std::min(least, c);
      col_least[x] = std::min(col_least[x], c);
    }
    row_to_target_[static_cast<size_t>(y)] = least + 1.0;
  }
  // Every way from row y to row ty steps across each row boundary between
  // them at least once, and the step across boundary k | k + 1 costs at
  // least the mean of the two rows' cheapest cells (its length is >= 1):
  // the sum of those means, over the boundaries from y to ty, bounds its
  // cost. Likewise for columns. RunLoadedTo combines the two as the octile
  // distance combines dx and dy (adds them when 4-connected), and that h
  // is consistent: a straight step changes one sum by one boundary's mean,
  // and costs at least that mean; a diagonal step changes each by one
  // term, a and b, and costs sqrt(2) times the mean of its two cells, at
  // least max(a, b) + (sqrt(2) - 1) min(a, b) (its cells are no cheaper
  // than the cheapest of their rows and columns), while the combination
  // is subadditive and non-decreasing in each sum, so h falls by no more
  // than that (up to rounding; RunLoadedTo settles a cell again when it
  // is reached more cheaply later).
  const auto to_target = [](double* least, int32_t n, int32_t target) {
    double sum = 0;
    double previous = least[target];
    for (int32_t k = target + 1; k < n; ++k) {
      const double c = least[k];
      sum += 0.5 * (previous + c);
      previous = c;
      least[k] = sum;
    }
    sum = 0;
    previous = least[target];
    for (int32_t k = target - 1; k >= 0; --k) {
      const double c = least[k];
      sum += 0.5 * (previous + c);
      previous = c;
      least[k] = sum;
    }
    least[target] = 0;
  };
  for (int32_t x = 0; x < w; ++x) col_to_target_[x] = col_least[x] + 1.0;
  to_target(col_to_target_.data(), w, tx);
  to_target(row_to_target_.data(), h, ty);
}

void ZoneDijkstra::NewRun() {
  if (++stamp_ == 0) {
    for (Node& n : nodes_) n.stamp = 0;
    stamp_ = 1;
  }
}

double ZoneDijkstra::Distance(Point p) const {
  if (!rect_.Contains(p)) return std::numeric_limits<double>::infinity();
  const Node& n = nodes_[Local(p)];
  return n.stamp == stamp_ ? n.g : std::numeric_limits<double>::infinity();
}

void ZoneDijkstra::AppendPath(Point target, RunLengthPath* path,
                              bool prefer_straight) {
  reversed_.clear();
  Point p = target;
  int out = -1;  // the direction of the step leaving p (none at the target)
  while (nodes_[Local(p)].g != 0) {
    const uint32_t at = Local(p);
    int d = nodes_[at].parent;
    // prefer_straight: enter p in the direction it is left if the cell
    // behind p is settled at g(p) minus that step's cost (to 1e-12
    // relative: equal sums in another order differ in the last bits); its
    // own way back is then just as short, and the path loses a turn. g
    // falls with every step. Distinct costs closer than that are rare and
    // harmless: the cost added below is the path's own, walked.
    if (prefer_straight && out >= 0 && out != d) {
      const uint32_t behind =
          static_cast<uint32_t>(static_cast<int32_t>(at) - offset_[out]);
      const Node& r = nodes_[behind];
      if (costs_[behind] != 0 && StepOpen(behind, out) && r.stamp == stamp_ &&
          r.closed != 0) {
        const double g = r.g + StepCost(static_cast<Direction>(out),
                                        costs_[behind], costs_[at]);
        const double g_p = nodes_[at].g;
        if (g <= g_p + 1e-12 * (1.0 + g_p) && g >= g_p - 1e-12 * (1.0 + g_p)) {
          d = out;
        }
      }
    }
    reversed_.push_back(static_cast<Direction>(d));
    out = d;
    p = Step(p, Opposite(static_cast<Direction>(d)));
  }
  // The cost summed in walking order, as WalkPath sums it.
  double walked = 0;
  for (auto it = reversed_.rbegin(); it != reversed_.rend(); ++it) {
    path->Append(*it);
    walked += StepCost(*it, costs_[Local(p)], costs_[Local(Step(p, *it))]);
    p = Step(p, *it);
  }
  path->AddCost(walked);
}

size_t ZoneDijkstra::MemoryUsage() const {
  return sizeof(*this) + costs_.capacity() + nodes_.capacity() * sizeof(Node) +
         open_.capacity() * sizeof(Entry) +
         to_open_.capacity() * sizeof(GEntry) +
         (bucket_head_.capacity() + to_bucket_head_.capacity()) *
             sizeof(uint32_t) +
         col_least_less_one_.capacity() +
         (col_to_target_.capacity() + row_to_target_.capacity()) *
             sizeof(double) +
         reversed_.capacity() * sizeof(Direction);
}

}  // namespace zonepath
