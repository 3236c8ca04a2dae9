// ZoneLayout: square zones of a grid, numbered row by row — the geometry a
// level of the abstraction uses, for code (like path storage) that needs to
// know which zone a cell is in but nothing else of the abstraction.
//
//   const ZoneLayout layout = world.abstraction().levels[0].layout();
//   ZoneId z = layout.ZoneOf({100, 37});
#ifndef ZONEPATH_GRID_ZONE_LAYOUT_H_
#define ZONEPATH_GRID_ZONE_LAYOUT_H_

#include <cstdint>

#include "zonepath/base/strong_id.h"
#include "zonepath/grid/geometry.h"

namespace zonepath {

struct ZoneTag {};
using ZoneId = StrongId<ZoneTag, uint32_t>;

struct ZoneLayout {
  int32_t zone_side = 1;  // cells, >= 1
  int32_t zones_x = 1;    // zones per row

  // Requires p inside the grid the layout was made for.
  ZoneId ZoneOf(Point p) const {
    return ZoneId(static_cast<uint32_t>(p.y / zone_side) *
                      static_cast<uint32_t>(zones_x) +
                  static_cast<uint32_t>(p.x / zone_side));
  }
};

}  // namespace zonepath

#endif  // ZONEPATH_GRID_ZONE_LAYOUT_H_
