#include "string_puller.h"

#include <algorithm>
#include <cstdint>

#include "zonepath/grid/path.h"

namespace zonepath::runtime_internal {

void StringPuller::Reset(Point start, const search_internal::OpenBits* bits,
                         bool fewer_turns, const OpenCellTiles* tiles) {
  bits_ = bits;
  tiles_ = tiles;
  fewer_turns_ = fewer_turns;
  cells_.clear();
  cells_.push_back(start);
  costs_.assign(1, 0.0);
  rest_cost_ = 0;
  at_ = start;
  index_ = 0;
  continues_.reset();
}

void StringPuller::AddCosts(size_t at, Direction d) {
  costs_.resize(cells_.size());
  double cost = costs_[at - 1];
  uint8_t from = grid_.cost(cells_[at - 1]);
  for (size_t i = at; i < cells_.size(); ++i) {
    const uint8_t to = grid_.cost(cells_[i]);
    cost += StepCost(d, from, to);
    from = to;
    costs_[i] = cost;
  }
}

bool StringPuller::Reaches(int64_t j) {
  const std::optional<Direction> continues =
      fewer_turns_ ? continues_ : std::nullopt;
  std::optional<OneTurnWay> way;
  if (weighted_) {
    // No dearer than the moves it replaces: from a corner, the rest of its
    // run to cells_[index_], then the path on to cells_[j].
    const double replaced = (at_ == cells_[index_] ? 0.0 : rest_cost_) +
                            (costs_[j] - costs_[index_]);
    way = FindOneTurnWayNoDearer(grid_, connectivity_, at_, cells_[j], replaced,
                                 continues);
  } else {
    way = ways_.To(cells_[j], continues);
  }
  if (!way.has_value()) return false;
  way_ = *way;
  return true;
}

void StringPuller::Walk(int runs, std::vector<Run>* out) {
  for (int r = 0; r < runs; ++r) {
    const Run& run = way_.runs[r];
    at_ = {at_.x + Dx(run.direction) * static_cast<int32_t>(run.count),
           at_.y + Dy(run.direction) * static_cast<int32_t>(run.count)};
    if (!out->empty() && out->back().direction == run.direction &&
        out->back().count <= UINT32_MAX - run.count) {
      out->back().count += run.count;
    } else {
      out->push_back(run);
    }
    continues_ = run.direction;
  }
}

void StringPuller::Pull(int64_t lookahead, bool final, std::vector<Run>* out) {
  lookahead = std::max<int64_t>(1, lookahead);
  const int64_t last = static_cast<int64_t>(cells_.size()) - 1;
  while (pending() > (final ? 0 : lookahead)) {
    const int64_t i = index_;
    const int64_t hi = std::min(last, i + lookahead);
    if (!weighted_) ways_.Reset(at_, bits_, tiles_);
    // From a cell of the path the next cell is one move away; from a
    // corner nothing past cells_[i] may be in reach. Double the reach from
    // kFirstReach while ways get there, then bisect between the last
    // reached and the first missed. A failed try leaves way_ alone, so it
    // stays the way to `reached` (when reached > i + 1, or a corner's).
    const bool on_path = at_ == cells_[i];
    int64_t reached = on_path ? i + 1 : i, missed = hi + 1;
    bool have_way = false;
    for (int64_t step = kFirstReach; i + step <= hi; step *= 2) {
      if (!Reaches(i + step)) {
        missed = i + step;
        break;
      }
      reached = i + step;
      have_way = true;
    }
    if (missed > hi && reached < hi) {
      if (Reaches(hi)) {
        reached = hi;
        have_way = true;
      } else {
        missed = hi;
      }
    }
    while (missed - reached > 1) {
      const int64_t mid = reached + (missed - reached) / 2;
      if (Reaches(mid)) {
        reached = mid;
        have_way = true;
      } else {
        missed = mid;
      }
    }
    if (!have_way) {
      // One move on along the path, or the corner's run to its cell.
      way_.count = 1;
      if (on_path) {
        way_.runs[0] = {*DirectionFromDelta(cells_[i + 1].x - at_.x,
                                            cells_[i + 1].y - at_.y),
                        1};
        index_ = i + 1;
      } else {
        way_.runs[0] = rest_;
      }
      Walk(1, out);
      continue;
    }
    index_ = reached;
    if (reached < last && way_.count == 2) {
      // Up to the corner only: the next way starts there. (Not at the
      // path's end, where there is nothing beyond to bend towards.)
      rest_ = way_.runs[1];
      Walk(1, out);
      if (weighted_) rest_cost_ = RunsCost(grid_, at_, {&rest_, 1});
    } else {
      Walk(way_.count, out);
    }
  }
  // Drop pulled cells once they are most of the buffer (amortised O(1)).
  if (index_ > 1024 && index_ * 2 > static_cast<int64_t>(cells_.size())) {
    cells_.erase(cells_.begin(), cells_.begin() + index_);
    if (weighted_) costs_.erase(costs_.begin(), costs_.begin() + index_);
    index_ = 0;
  }
}

}  // namespace zonepath::runtime_internal
