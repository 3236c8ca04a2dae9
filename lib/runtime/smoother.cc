#include "smoother.h"

#include <algorithm>
#include <limits>

#include "absl/time/clock.h"
#include "row_band.h"
#include "zonepath/search/run_straightener.h"

namespace zonepath::runtime_internal {
namespace {

Direction StepBetween(Point a, Point b) {
  return *DirectionFromDelta(b.x - a.x, b.y - a.y);
}

// A window search that misses the window's own way, which lies in its band:
// a bug, reported rather than hidden.
absl::Status WindowNotFound() {
  return absl::InternalError("smoothing: a window's own path was not found");
}

}  // namespace

StreamSmoother::StreamSmoother(const Grid& grid, Connectivity connectivity,
                               GridAStar* astar, const SmoothWindows& windows)
    : grid_(grid),
      connectivity_(connectivity),
      astar_(astar),
      pull_first_(std::max(1, windows.pull_first)),
      pull_lookahead_(std::max(1, windows.pull_lookahead)),
      puller_(grid, connectivity),
      first_(std::max(4, windows.first)),
      first_advance_(std::clamp<int64_t>(windows.first_advance, 1, first_)),
      window_(std::max(4, windows.window)),
      advance_(std::clamp<int64_t>(windows.advance, 1, window_)),
      margin_(std::max(1, windows.margin)),
      one_cost_(grid.OneCost()),
      straight_cost_(StepCost(Direction::kN, grid.min_cost(), grid.min_cost())),
      diagonal_cost_(
          StepCost(Direction::kNE, grid.min_cost(), grid.min_cost())) {}

void StreamSmoother::Reset(Point start, bool fewer_turns, bool by_search) {
  fewer_turns_ = fewer_turns;
  pull_ = !by_search;
  cells_.clear();
  cells_.push_back(start);
  head_ = 0;
  committed_ = 0;
  raw_cost_ = 0;
  // On a large grid of one cost its tiles, not its cold rows of costs
  // (OpenCellTiles: the cost they stand for was checked against every cell).
  tiles_ = astar_->cell_tiles();
  puller_.Reset(start, astar_->grid_bits(), fewer_turns, tiles_);
  pulled_.clear();
  pulled_end_ = start;
}

void StreamSmoother::AddRun(const Run& run) {
  if (pull_ && !one_cost_) {
    // The puller sums the step costs as below, for its own checks.
    puller_.AddRun(run);
    raw_cost_ = puller_.cost();
    return;
  }
  Point p = pull_ ? puller_.back() : cells_.back();
  double raw_cost = raw_cost_;
  if (pull_) {
    // Here the grid is of one cost by its counts (which a crafted file may
    // falsify; weighted grids returned above): where the run's cells all cost
    // the cheapest cost, as they do on any honest such grid, each step costs
    // its kind's, added step by step as a walker sums them. Checking the cells
    // by index is a fraction of stepping and costing each move (-6 %
    // instructions a smoothed query on Boston_0_1024); the puller keeps the
    // cells.
    // With the tiles every passable cell costs the cheapest (checked when
    // they were made), and the runs added are legal (AddRun's contract, as
    // refinement and Planner::Smooth give them), so their cells passable.
    bool uniform = tiles_ != nullptr;
    if (!uniform) {
      const Point next = Step(p, run.direction);
      const int64_t delta =
          (static_cast<int64_t>(next.y) - p.y) * grid_.width() +
          (static_cast<int64_t>(next.x) - p.x);
      const uint8_t cheapest = grid_.min_cost();
      int64_t index = grid_.Index(p).value();
      uniform = grid_.cost(CellIndex(static_cast<uint32_t>(index))) ==
                cheapest;  // (each step's cost reads both its cells)
      for (uint32_t i = 0; i < run.count && uniform; ++i) {
        index += delta;
        uniform =
            grid_.cost(CellIndex(static_cast<uint32_t>(index))) == cheapest;
      }
    }
    puller_.AddRun(run);
    if (uniform) {
      const double step = OneCostStep(run.direction);
      for (uint32_t i = 0; i < run.count; ++i) raw_cost += step;
      raw_cost_ = raw_cost;
      return;
    }
  }
  uint8_t from = CostAt(p);
  for (uint32_t i = 0; i < run.count; ++i) {
    p = Step(p, run.direction);
    const uint8_t to = CostAt(p);
    raw_cost += StepCost(run.direction, from, to);
    from = to;
    if (!pull_) cells_.push_back(p);
  }
  raw_cost_ = raw_cost;
}

template <typename Fn>
void StreamSmoother::ForEachMoveFromCells(int64_t from, int64_t to,
                                          Fn&& fn) const {
  uint8_t cost_from = grid_.cost(cells_[from]);
  for (int64_t i = from + 1; i <= to; ++i) {
    const Direction d = StepBetween(cells_[i - 1], cells_[i]);
    const uint8_t cost_to = grid_.cost(cells_[i]);
    fn(i, d, StepCost(d, cost_from, cost_to));
    cost_from = cost_to;
  }
}

template <typename Fn>
void StreamSmoother::ForEachMove(int64_t from, int64_t to, Fn&& fn) const {
  if (!one_cost_) {
    ForEachMoveFromCells(from, to, fn);
    return;
  }
  for (int64_t i = from + 1; i <= to; ++i) {
    const Direction d = StepBetween(cells_[i - 1], cells_[i]);
    fn(i, d, OneCostStep(d));
  }
}

int StreamSmoother::RunsIn(int64_t from, int64_t to) const {
  int runs = 0;
  int last = -1;
  for (int64_t i = from + 1; i <= to; ++i) {
    const int d = static_cast<int>(StepBetween(cells_[i - 1], cells_[i]));
    if (d != last) ++runs;
    last = d;
  }
  return runs;
}

absl::Status StreamSmoother::SmoothWindow(int64_t* len, SearchStats* stats) {
  const int64_t from = head_, to = head_ + *len;
  double old_cost = 0;
  Rect box{cells_[from].x, cells_[from].y, cells_[from].x + 1,
           cells_[from].y + 1};
  ForEachMove(from, to, [&](int64_t i, Direction, double step) {
    old_cost += step;
    box.x0 = std::min(box.x0, cells_[i].x);
    box.y0 = std::min(box.y0, cells_[i].y);
    box.x1 = std::max(box.x1, cells_[i].x + 1);
    box.y1 = std::max(box.y1, cells_[i].y + 1);
  });
  const double tolerance = 1e-9 * std::max(1.0, old_cost);
  const double bound =
      HeuristicCost(cells_[from], cells_[to], connectivity_, grid_.min_cost());
  // Nothing can be shorter than the heuristic, nor have fewer runs than 2.
  // (The runs are counted only when they decide: at the bound, or below
  // for a way found as short.)
  if (old_cost <= bound + tolerance &&
      (!fewer_turns_ || RunsIn(from, to) <= 2)) {
    return absl::OkStatus();
  }
  box = {std::max(0, box.x0 - margin_), std::max(0, box.y0 - margin_),
         std::min(grid_.width(), box.x1 + margin_),
         std::min(grid_.height(), box.y1 + margin_)};
  // The band of cells within `margin_` (Chebyshev) of the window's path,
  // as one x interval per row: a diagonal window's bounding box is
  // window^2 cells, its band about window x (2 margin + 1). Each row's
  // path cells, widened by the margin across rows, then along the row.
  const int32_t rows = box.height();
  corridor_.y0 = box.y0;
  corridor_.lo.assign(rows, std::numeric_limits<int32_t>::max());
  corridor_.hi.assign(rows, std::numeric_limits<int32_t>::min());
  for (int64_t i = from; i <= to; ++i) {
    const Point c = cells_[i];
    const size_t r = static_cast<size_t>(c.y - box.y0);
    corridor_.lo[r] = std::min(corridor_.lo[r], c.x);
    corridor_.hi[r] = std::max(corridor_.hi[r], c.x);
  }
  WidenAcrossRows(margin_, &corridor_.lo, &corridor_.hi, &widen_scratch_);
  for (int32_t r = 0; r < rows; ++r) {
    if (corridor_.lo[r] > corridor_.hi[r]) continue;  // empty stays empty
    corridor_.lo[r] = std::max(box.x0, corridor_.lo[r] - margin_);
    corridor_.hi[r] = std::min(box.x1 - 1, corridor_.hi[r] + margin_);
  }
  // A way as costly as the window's own is taken only for fewer runs.
  const double below = old_cost + (fewer_turns_ ? tolerance : -tolerance);
  bool found = false;
  if (absl::Status s = SearchBand(from, to, box, below, stats, &found);
      !s.ok()) {
    return s;
  }
  if (!found) {
    // Above the window's own cost, its own way lies in the band and must be
    // found; below it, none cheaper is the usual answer.
    if (below > old_cost) return WindowNotFound();
    return absl::OkStatus();
  }
  const bool better =
      scratch_.cost() < old_cost - tolerance ||
      (fewer_turns_ && scratch_.cost() <= old_cost + tolerance &&
       static_cast<int>(scratch_.runs().size()) < RunsIn(from, to));
  if (!better) return absl::OkStatus();
  replacement_.clear();
  Point q = cells_[from];
  for (const Run& run : scratch_.runs()) {
    for (uint32_t i = 0; i < run.count; ++i) {
      q = Step(q, run.direction);
      replacement_.push_back(q);
    }
  }
  // Splice: cells_[from+1 .. to] becomes replacement_.
  const auto first = cells_.begin() + from + 1;
  const int64_t old_len = to - from;
  const int64_t new_len = static_cast<int64_t>(replacement_.size());
  if (new_len <= old_len) {
    std::copy(replacement_.begin(), replacement_.end(), first);
    cells_.erase(first + new_len, first + old_len);
  } else {
    std::copy(replacement_.begin(), replacement_.begin() + old_len, first);
    cells_.insert(first + old_len, replacement_.begin() + old_len,
                  replacement_.end());
  }
  *len = new_len;
  return absl::OkStatus();
}

absl::Status StreamSmoother::SearchBand(int64_t from, int64_t to,
                                        const Rect& box, double below,
                                        SearchStats* stats, bool* found) {
  *found = true;
  if (!one_cost_) {
    // Weighted: A* over a framed copy of the band, its queue buckets of f
    // (ZoneDijkstra::RunLoadedTo), seeking only ways below `below`: measured
    // several times cheaper a window than GridAStar's heap and page reads
    // (README, "Weighted smoothing windows"), and ~30 % cheaper than the
    // band's Dijkstra, whose paths it finds as short (README, "Weighted
    // windows by A*").
    if (band_search_ == nullptr) {
      band_search_ = std::make_unique<ZoneDijkstra>(static_cast<int32_t>(
          std::min<int64_t>(kMaxBandSide, std::max(first_, window_) + 1 +
                                              2 * int64_t{margin_})));
    }
    if (box.width() <= band_search_->max_side() &&
        box.height() <= band_search_->max_side()) {
      const Point target = cells_[to];
      const absl::Time begin = absl::Now();
      band_search_->LoadRect(grid_, box, &corridor_);
      band_search_->RunLoadedTo(cells_[from], target, connectivity_, below);
      SearchStats window = band_search_->stats();
      window.time = absl::Now() - begin;  // the band's copy included
      *stats += window;
      if (!(band_search_->Distance(target) <
            std::numeric_limits<double>::infinity())) {
        *found = false;  // none cheaper than `below`
        return absl::OkStatus();
      }
      scratch_.Reset(cells_[from]);
      band_search_->AppendPath(target, &scratch_, fewer_turns_);
      return absl::OkStatus();
    }
  }
  AStarOptions options;
  options.connectivity = connectivity_;
  // On a grid of one cost the window is searched by jump points, and its
  // turns are taken out when it is committed (Emit): straightening each
  // window as it is searched would bend the path away from where the next,
  // overlapping window finds its best way (measured: 0.43 -> 0.50 % on
  // Cauldron).
  options.prefer_straight = fewer_turns_ && !one_cost_;
  options.jump_points = true;
  options.bounds = box;
  options.corridor = &corridor_;
  absl::StatusOr<SearchOutcome> outcome =
      astar_->FindPath(cells_[from], cells_[to], options, &scratch_);
  *stats += astar_->stats();
  if (!outcome.ok()) return outcome.status();
  if (*outcome != SearchOutcome::kFound) return WindowNotFound();
  return absl::OkStatus();
}

void StreamSmoother::Emit(int64_t moves, RunLengthPath* out) {
  if (fewer_turns_ && moves >= 3) Straighten(moves);
  // The path's cost is its walked cost bit for bit (RunsCost): each move's
  // cost is read from its cells, even on a grid said to have one cost (a
  // loaded world's cost counts, behind Grid::OneCost, are not checked
  // against its cells), and added in order. Runs are appended whole.
  Run run{Direction::kN, 0};
  ForEachMoveFromCells(head_, head_ + moves,
                       [&](int64_t, Direction d, double step) {
                         out->AddCost(step);
                         if (d != run.direction) {
                           if (run.count > 0) {
                             out->Append(run.direction, run.count);
                           }
                           run = {d, 0};
                         }
                         ++run.count;
                       });
  if (run.count > 0) out->Append(run.direction, run.count);
  head_ += moves;
  committed_ += moves;
  // Drop committed cells once they are most of the buffer (amortised O(1)).
  if (head_ > 4 * window_ && head_ * 2 > static_cast<int64_t>(cells_.size())) {
    cells_.erase(cells_.begin(), cells_.begin() + head_);
    head_ = 0;
  }
}

void StreamSmoother::EmitPulled(RunLengthPath* out) {
  // Each move's cost read from its cells and added in order, as Emit does.
  Point p = pulled_end_;
  uint8_t from = CostAt(p);
  for (const Run& run : pulled_) {
    for (uint32_t i = 0; i < run.count; ++i) {
      p = Step(p, run.direction);
      const uint8_t to = CostAt(p);
      out->AddCost(StepCost(run.direction, from, to));
      from = to;
    }
    out->Append(run.direction, run.count);
    committed_ += run.count;
  }
  pulled_end_ = p;
  pulled_.clear();
}

absl::Status StreamSmoother::Commit(bool final, RunLengthPath* out,
                                    SearchStats* stats) {
  if (pull_) {
    // Pulls what the lookahead allows (all of it when final); what comes
    // out is final and committed.
    const absl::Time begin = absl::Now();
    // With nothing more to come the whole lookahead serves, even before
    // the first moves are out (the short first one is only there so that
    // they need less refinement).
    puller_.Pull(final ? pull_lookahead_ : window(), final, &pulled_);
    EmitPulled(out);
    stats->time += absl::Now() - begin;
    return absl::OkStatus();
  }
  while (buffered() > window() || (final && buffered() > 0)) {
    const int64_t size = window();
    const int64_t advance = committed_ == 0 ? first_advance_ : advance_;
    const bool last = final && buffered() <= size;
    int64_t len = std::min(buffered(), size);
    if (absl::Status s = SmoothWindow(&len, stats); !s.ok()) return s;
    if (last) {
      Emit(buffered(), out);
      break;
    }
    Emit(std::max<int64_t>(1, std::min(advance, len)), out);
  }
  return absl::OkStatus();
}

void StreamSmoother::Straighten(int64_t moves) {
  straight_.clear();
  for (int64_t i = head_ + 1; i <= head_ + moves; ++i) {
    const Direction d = StepBetween(cells_[i - 1], cells_[i]);
    if (!straight_.empty() && straight_.back().direction == d) {
      ++straight_.back().count;
    } else {
      straight_.push_back({d, 1});
    }
  }
  if (tiles_ != nullptr) {
    StraightenRuns(*tiles_, grid_.bounds(), cells_[head_], &straight_);
  } else if (one_cost_) {
    if (!StraightenRuns(grid_, grid_.bounds(), nullptr, cells_[head_],
                        &straight_)) {
      return;
    }
  } else {
    StraightenRunsNoCostlier(grid_, cells_[head_], &straight_);
  }
  // The same number of steps from the same cell to the same cell.
  int64_t i = head_;
  for (const Run& run : straight_) {
    for (uint32_t k = 0; k < run.count; ++k, ++i) {
      cells_[i + 1] = Step(cells_[i], run.direction);
    }
  }
}

size_t StreamSmoother::MemoryUsage() const {
  return sizeof(*this) + cells_.capacity() * sizeof(Point) +
         puller_.MemoryUsage() + pulled_.capacity() * sizeof(Run) +
         scratch_.MemoryUsage() + replacement_.capacity() * sizeof(Point) +
         straight_.capacity() * sizeof(Run) +
         widen_scratch_.capacity() * sizeof(int32_t) +
         (band_search_ != nullptr ? band_search_->MemoryUsage() : 0);
}

}  // namespace zonepath::runtime_internal
