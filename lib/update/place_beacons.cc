// Level-1 entrances and beacons (HPA* transition points).
#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "zonepath/grid/moves.h"
#include "zonepath/update/zone_kernels.h"

namespace zonepath::update_internal {

void ScanBorderSegment(const Grid& grid, const BuildParams& params,
                       const BorderSegment& segment,
                       std::vector<std::pair<Point, Point>>* pairs) {
  const int32_t line = segment.line;
  auto across = [&](int32_t i) {
    return segment.vertical ? std::pair<Point, Point>{{line - 1, i}, {line, i}}
                            : std::pair<Point, Point>{{i, line - 1}, {i, line}};
  };
  // One entrance: a maximal run of cell pairs passable on both sides of the
  // border, with the same pair of terrain costs all along (so a road
  // crossing a border of grass is its own entrance and gets its own
  // beacons). Short entrances get one beacon pair in the middle, long ones a
  // pair at each end, and with a beacon spacing s pairs in between, evenly
  // spread, so that neighbouring pairs are at most s cells apart.
  auto open = [&](int32_t i) {
    const auto [a, b] = across(i);
    return grid.passable(a) && grid.passable(b);
  };
  auto same_terrain = [&](int32_t i, int32_t j) {
    const auto [a, b] = across(i);
    const auto [c, d] = across(j);
    return grid.cost(a) == grid.cost(c) && grid.cost(b) == grid.cost(d);
  };
  int32_t run = -1;
  for (int32_t i = segment.begin; i <= segment.end; ++i) {
    const bool is_open = i < segment.end && open(i);
    if (run >= 0 && !(is_open && same_terrain(i, run))) {
      const int32_t length = i - run;
      if (length < params.entrance_threshold) {
        pairs->push_back(across(run + (length - 1) / 2));
      } else {
        const int32_t s = params.beacon_spacing;
        // Gaps between neighbouring pairs: ceil((length - 1) / s), or 1.
        const int32_t gaps = s > 0 ? std::max(1, (length - 2 + s) / s) : 1;
        for (int32_t k = 0; k < gaps; ++k) {
          pairs->push_back(across(run + (length - 1) * k / gaps));
        }
        pairs->push_back(across(i - 1));
      }
      run = -1;
    }
    if (is_open && run < 0) run = i;
  }
}

void PlaceBeacons(const Grid& grid, const BuildParams& params,
                  const AbstractLevel& level1, std::vector<Point>* beacons,
                  std::vector<InterEdge>* inter_edges) {
  const int32_t side = level1.zone_side;
  const int32_t w = grid.width(), h = grid.height();
  std::vector<std::pair<Point, Point>> pairs;  // cell pairs across borders
  // Vertical borders (between columns x-1 and x), then horizontal ones, one
  // zone side at a time.
  for (int32_t x = side; x < w; x += side) {
    for (int32_t y0 = 0; y0 < h; y0 += side) {
      ScanBorderSegment(grid, params, {true, x, y0, std::min(h, y0 + side)},
                        &pairs);
    }
  }
  for (int32_t y = side; y < h; y += side) {
    for (int32_t x0 = 0; x0 < w; x0 += side) {
      ScanBorderSegment(grid, params, {false, y, x0, std::min(w, x0 + side)},
                        &pairs);
    }
  }
  // Beacons: the distinct cells, ordered by zone then row then column.
  beacons->clear();
  for (const auto& [a, b] : pairs) {
    beacons->push_back(a);
    beacons->push_back(b);
  }
  auto key = [&](Point p) {
    return std::make_tuple(level1.ZoneOf(p).value(), p.y, p.x);
  };
  std::sort(beacons->begin(), beacons->end(),
            [&](Point a, Point b) { return key(a) < key(b); });
  beacons->erase(std::unique(beacons->begin(), beacons->end()), beacons->end());
  absl::flat_hash_map<Point, uint32_t> id;
  for (uint32_t i = 0; i < beacons->size(); ++i) id[(*beacons)[i]] = i;
  inter_edges->clear();
  for (const auto& [a, b] : pairs) {
    const Direction d = *DirectionFromDelta(b.x - a.x, b.y - a.y);
    inter_edges->push_back(
        {id[a], id[b], StepCost(d, grid.cost(a), grid.cost(b))});
  }
}

}  // namespace zonepath::update_internal
