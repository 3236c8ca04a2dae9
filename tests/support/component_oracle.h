// Flood-fill oracle for component labels: a breadth-first fill of the open
// cells (8-connected moves, no corner cutting), and a check that a grid's
// labels partition the open cells exactly as it does.
#ifndef ZONEPATH_TESTS_SUPPORT_COMPONENT_ORACLE_H_
#define ZONEPATH_TESTS_SUPPORT_COMPONENT_ORACLE_H_

#include <map>
#include <queue>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "zonepath/grid/grid.h"
#include "zonepath/grid/moves.h"

namespace zonepath::testing {

// Per cell: its component number (0, 1, ... in row-major order of first
// cells), or -1 if blocked.
inline std::vector<int> FloodFillComponents(const Grid& grid) {
  std::vector<int> label(grid.cell_count(), -1);
  int next = 0;
  std::queue<Point> queue;
  for (int y = 0; y < grid.height(); ++y) {
    for (int x = 0; x < grid.width(); ++x) {
      if (!grid.passable({x, y}) || label[grid.Index({x, y}).value()] >= 0) {
        continue;
      }
      label[grid.Index({x, y}).value()] = next;
      queue.push({x, y});
      while (!queue.empty()) {
        const Point p = queue.front();
        queue.pop();
        for (Direction d : kAllDirections) {
          if (!CanStep(grid, p, d, Connectivity::kEight)) continue;
          const Point q = Step(p, d);
          if (label[grid.Index(q).value()] < 0) {
            label[grid.Index(q).value()] = next;
            queue.push(q);
          }
        }
      }
      ++next;
    }
  }
  return label;
}

// Blocked cells have no label, labels are < component_count(), and two open
// cells share a label exactly when the flood fill puts them together.
inline void ExpectLabelsMatchFloodFill(const Grid& grid,
                                       const std::string& context) {
  const std::vector<int> reference = FloodFillComponents(grid);
  std::map<uint32_t, int> to_reference;
  std::map<int, uint32_t> from_reference;
  for (int64_t i = 0; i < grid.cell_count(); ++i) {
    const Point p = grid.ToPoint(CellIndex(static_cast<uint32_t>(i)));
    const uint32_t label = grid.component(p);
    ASSERT_EQ(label == Grid::kNoComponent, reference[i] < 0)
        << context << " " << PointString(p);
    if (reference[i] < 0) continue;
    ASSERT_LT(label, grid.component_count()) << context;
    const auto [a, fresh_a] = to_reference.emplace(label, reference[i]);
    const auto [b, fresh_b] = from_reference.emplace(reference[i], label);
    ASSERT_EQ(a->second, reference[i])
        << context << ": label " << label << " spans two components at "
        << PointString(p);
    ASSERT_EQ(b->second, label)
        << context << ": one component has two labels at " << PointString(p);
  }
}

}  // namespace zonepath::testing

#endif  // ZONEPATH_TESTS_SUPPORT_COMPONENT_ORACLE_H_
