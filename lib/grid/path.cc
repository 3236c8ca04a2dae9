#include "zonepath/grid/path.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace zonepath {

std::string RunsToString(const std::vector<Run>& runs) {
  std::string out;
  for (const Run& run : runs) {
    if (!out.empty()) out.push_back(',');
    absl::StrAppend(&out, DirectionName(run.direction), run.count);
  }
  return out;
}

absl::StatusOr<std::vector<Run>> ParseRuns(absl::string_view text) {
  std::vector<Run> runs;
  if (text.empty()) return runs;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    size_t letters = 0;
    while (letters < item.size() &&
           (item[letters] < '0' || item[letters] > '9')) {
      ++letters;
    }
    std::optional<Direction> d = ParseDirection(item.substr(0, letters));
    uint32_t count = 0;
    if (!d.has_value() || !absl::SimpleAtoi(item.substr(letters), &count) ||
        count == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad run '", item,
                       "': expected a direction (N, NE, "
                       "E, SE, S, SW, W, NW) followed by a count >= 1"));
    }
    runs.push_back({*d, count});
  }
  return runs;
}

Point CellAfterMoves(Point start, const std::vector<Run>& runs, int64_t moves) {
  Point p = start;
  for (const Run& run : runs) {
    if (moves <= 0) break;
    const int32_t n = static_cast<int32_t>(std::min<int64_t>(moves, run.count));
    p = {p.x + Dx(run.direction) * n, p.y + Dy(run.direction) * n};
    moves -= n;
  }
  return p;
}

absl::StatusOr<PathWalk> WalkRuns(const Grid& grid, Point start,
                                  const std::vector<Run>& runs,
                                  Connectivity connectivity) {
  if (!grid.PassableOrFalse(start)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "path start ", PointString(start), " is blocked or outside the grid"));
  }
  PathWalk walk{start, 0, 0};
  for (const Run& run : runs) {
    for (uint32_t i = 0; i < run.count; ++i) {
      if (!CanStep(grid, walk.end, run.direction, connectivity)) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "illegal step %d (%s from %s): blocked, outside the grid or "
            "cutting a corner",
            walk.steps, DirectionName(run.direction), PointString(walk.end)));
      }
      walk.cost += StepCost(grid, walk.end, run.direction);
      walk.end = Step(walk.end, run.direction);
      ++walk.steps;
    }
  }
  return walk;
}

namespace {

// `Cells` is the Grid or its OpenCellTiles (the same costs).
template <typename Cells>
double CostOfRuns(const Cells& grid, Point start, absl::Span<const Run> runs) {
  double cost = 0;
  Point p = start;
  uint8_t from = grid.cost(p);
  for (const Run& run : runs) {
    for (uint32_t i = 0; i < run.count; ++i) {
      p = Step(p, run.direction);
      const uint8_t to = grid.cost(p);
      cost += StepCost(run.direction, from, to);
      from = to;
    }
  }
  return cost;
}

}  // namespace

double RunsCost(const Grid& grid, Point start, absl::Span<const Run> runs) {
  return CostOfRuns(grid, start, runs);
}

double RunsCost(const OpenCellTiles& tiles, Point start,
                absl::Span<const Run> runs) {
  return CostOfRuns(tiles, start, runs);
}

}  // namespace zonepath
