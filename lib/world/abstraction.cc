#include "zonepath/world/abstraction.h"

#include <algorithm>
#include <limits>

namespace zonepath {

LevelGeometry LevelGeometry::For(const BuildParams& params, int32_t width,
                                 int32_t height, int index) {
  int64_t side = params.zone_size;
  for (int i = 0; i < index; ++i) side *= params.group;
  side = std::min<int64_t>(side, std::numeric_limits<int32_t>::max() / 2);
  LevelGeometry level;
  level.zone_side = static_cast<int32_t>(side);
  level.zones_x = static_cast<int32_t>((width + side - 1) / side);
  level.zones_y = static_cast<int32_t>((height + side - 1) / side);
  return level;
}

int32_t AutoLevelCount(const BuildParams& params, int32_t width,
                       int32_t height) {
  const int64_t longer = std::max(width, height);
  int64_t next_side = static_cast<int64_t>(params.zone_size) * params.group;
  int32_t levels = 1;
  while (levels < 8 && 4 * next_side <= longer) {
    ++levels;
    next_side *= params.group;
  }
  return levels;
}

Rect LevelGeometry::ZoneRect(ZoneId z, int32_t width, int32_t height) const {
  const int32_t zx = static_cast<int32_t>(z.value() % zones_x);
  const int32_t zy = static_cast<int32_t>(z.value() / zones_x);
  return {zx * zone_side, zy * zone_side, std::min(width, (zx + 1) * zone_side),
          std::min(height, (zy + 1) * zone_side)};
}

size_t AbstractLevel::MemoryUsage() const {
  return sizeof(*this) + node_beacon.capacity() * 4 +
         edge_begin.capacity() * 4 + edges.capacity() * sizeof(AbstractEdge) +
         zone_node_begin.capacity() * 4 + node_component.capacity() * 4;
}

size_t Abstraction::MemoryUsage() const {
  size_t bytes = sizeof(*this) + beacons.capacity() * sizeof(Point) +
                 cached_paths.MemoryUsage();
  for (const AbstractLevel& level : levels) bytes += level.MemoryUsage();
  return bytes;
}

}  // namespace zonepath
