// Level-1 entrances and beacons (HPA* transition points).
#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "build_internal.h"
#include "zonepath/grid/moves.h"

namespace zonepath::offline_internal {

void PlaceBeacons(const Grid& grid, const BuildParams& params,
                  const AbstractLevel& level1, std::vector<Point>* beacons,
                  std::vector<InterEdge>* inter_edges) {
  const int32_t side = level1.zone_side;
  const int32_t w = grid.width(), h = grid.height();
  std::vector<std::pair<Point, Point>> pairs;  // (inner, outer) cell pairs
  // One entrance: a maximal run of cell pairs passable on both sides of a
  // border, within one zone's extent along the border, with the same pair of
  // terrain costs all along (so a road crossing a border of grass is its own
  // entrance and gets its own beacons). Short entrances get one beacon pair
  // in the middle, long ones a pair at each end.
  auto emit_run = [&](int32_t begin, int32_t end, auto make_pair) {
    const int32_t length = end - begin;
    if (length < params.entrance_threshold) {
      pairs.push_back(make_pair(begin + (length - 1) / 2));
    } else {
      pairs.push_back(make_pair(begin));
      pairs.push_back(make_pair(end - 1));
    }
  };
  // Vertical borders: between columns x-1 and x.
  for (int32_t x = side; x < w; x += side) {
    for (int32_t y0 = 0; y0 < h; y0 += side) {
      const int32_t y1 = std::min(h, y0 + side);
      int32_t run = -1;
      for (int32_t y = y0; y <= y1; ++y) {
        const bool open =
            y < y1 && grid.passable({x - 1, y}) && grid.passable({x, y});
        const bool same_terrain =
            open && run >= 0 &&
            grid.cost({x - 1, y}) == grid.cost({x - 1, run}) &&
            grid.cost({x, y}) == grid.cost({x, run});
        if (run >= 0 && !same_terrain) {
          emit_run(run, y, [x](int32_t yy) {
            return std::pair<Point, Point>{{x - 1, yy}, {x, yy}};
          });
          run = -1;
        }
        if (open && run < 0) run = y;
      }
    }
  }
  // Horizontal borders: between rows y-1 and y.
  for (int32_t y = side; y < h; y += side) {
    for (int32_t x0 = 0; x0 < w; x0 += side) {
      const int32_t x1 = std::min(w, x0 + side);
      int32_t run = -1;
      for (int32_t x = x0; x <= x1; ++x) {
        const bool open =
            x < x1 && grid.passable({x, y - 1}) && grid.passable({x, y});
        const bool same_terrain =
            open && run >= 0 &&
            grid.cost({x, y - 1}) == grid.cost({run, y - 1}) &&
            grid.cost({x, y}) == grid.cost({run, y});
        if (run >= 0 && !same_terrain) {
          emit_run(run, x, [y](int32_t xx) {
            return std::pair<Point, Point>{{xx, y - 1}, {xx, y}};
          });
          run = -1;
        }
        if (open && run < 0) run = x;
      }
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

}  // namespace zonepath::offline_internal
