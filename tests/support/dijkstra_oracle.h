// Test oracle: plain Dijkstra over a grid, written independently of the
// library's movement code (its own neighbour and cost rules), so that the
// planners are checked against a second implementation of the rules in
// ../shared/maps/README.md plus zonepath's terrain-cost rule.
#ifndef ZONEPATH_TESTS_SUPPORT_DIJKSTRA_ORACLE_H_
#define ZONEPATH_TESTS_SUPPORT_DIJKSTRA_ORACLE_H_

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "zonepath/grid/grid.h"

namespace zonepath::testing {

// Costs from `start` to every cell (infinity if unreachable) under the
// movement rules, searching only inside [x0,x1)x[y0,y1).
inline std::vector<double> OracleDistances(const Grid& grid, Point start,
                                           bool eight_connected, Rect bounds) {
  const int w = grid.width();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(static_cast<size_t>(grid.cell_count()), inf);
  const std::vector<uint8_t> costs = grid.CostVector();
  auto open = [&](int x, int y) {
    return x >= bounds.x0 && y >= bounds.y0 && x < bounds.x1 && y < bounds.y1 &&
           costs[static_cast<size_t>(y) * w + x] != 0;
  };
  using Item = std::pair<double, int64_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  dist[static_cast<size_t>(start.y) * w + start.x] = 0;
  queue.push({0, int64_t{start.y} * w + start.x});
  while (!queue.empty()) {
    auto [d, cell] = queue.top();
    queue.pop();
    if (d > dist[cell]) continue;
    const int x = static_cast<int>(cell % w), y = static_cast<int>(cell / w);
    const double here = costs[cell];
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if (dx == 0 && dy == 0) continue;
        const bool diagonal = dx != 0 && dy != 0;
        if (diagonal && !eight_connected) continue;
        const int nx = x + dx, ny = y + dy;
        if (!open(nx, ny)) continue;
        if (diagonal && (!open(nx, y) || !open(x, ny))) continue;
        const int64_t next = int64_t{ny} * w + nx;
        const double step =
            (here + costs[next]) / 2.0 * (diagonal ? std::sqrt(2.0) : 1.0);
        if (d + step < dist[next]) {
          dist[next] = d + step;
          queue.push({dist[next], next});
        }
      }
    }
  }
  return dist;
}

// The grid as text (digits for costs, '@' blocked), for failure messages.
inline std::string GridToText(const Grid& grid) {
  std::string out;
  for (int y = 0; y < grid.height(); ++y) {
    for (int x = 0; x < grid.width(); ++x) {
      const uint8_t c = grid.cost({x, y});
      out.push_back(c == 0   ? '@'
                    : c == 1 ? '.'
                             : static_cast<char>('0' + c % 10));
    }
    out.push_back('\n');
  }
  return out;
}

}  // namespace zonepath::testing

#endif  // ZONEPATH_TESTS_SUPPORT_DIJKSTRA_ORACLE_H_
