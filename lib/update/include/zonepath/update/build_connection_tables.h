// BuildConnectionTables: the connection tables (world/connection_tables.h)
// of an abstraction, for every level from ConnectionTables::kFirstLevel up.
// The offline build stores them in the world file; a planner connects its
// endpoints to those levels by reading them instead of searching.
//
//   std::shared_ptr<const ConnectionTables> tables = BuildConnectionTables(
//       flat, grid.width(), grid.height(), /*threads=*/2);
//   World world(grid, flat, /*version=*/0, tables);
//
// Cost: per zone of such a level, one Dijkstra per level-j node over the
// zone's level-(j-1) nodes (a local copy of their graph). Rooms 16384²:
// README, "Connection tables".
#ifndef ZONEPATH_UPDATE_BUILD_CONNECTION_TABLES_H_
#define ZONEPATH_UPDATE_BUILD_CONNECTION_TABLES_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "zonepath/world/connection_tables.h"
#include "zonepath/world/shared_abstraction.h"

namespace zonepath {

// `a` must be a canonical abstraction (built, loaded, or FromFlat), of a
// width x height grid; threads >= 1. Null when it has fewer than
// ConnectionTables::kFirstLevel levels.
std::shared_ptr<const ConnectionTables> BuildConnectionTables(
    const SharedAbstraction& a, int32_t width, int32_t height, int threads);
// The same from the flat form (what `zonepath build` saves without making a
// World).
std::shared_ptr<const ConnectionTables> BuildConnectionTables(
    const Abstraction& a, int32_t width, int32_t height, int threads);

// The tables of `a`, made from `old` (the tables of the abstraction `a` was
// updated from) by recomputing the zones the update rebuilt (`rehomed[i]`:
// level i + 1's, as ZoneUpdateStats::rehomed_zones) and sharing the rest:
// what ApplyChanges does, the same values a full build gives. A zone's
// level-(j-1) graph and level-j nodes change only if it was rebuilt.
std::shared_ptr<const ConnectionTables> UpdateConnectionTables(
    const ConnectionTables& old, const SharedAbstraction& a, int32_t width,
    int32_t height, const std::vector<std::vector<uint32_t>>& rehomed);

}  // namespace zonepath

#endif  // ZONEPATH_UPDATE_BUILD_CONNECTION_TABLES_H_
