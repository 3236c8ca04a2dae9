// Offline build: grid -> zones -> beacons -> abstract levels -> World.
//
// Cuts the grid into zones, places beacons on the entrances between zones
// (HPA*), costs every intra-zone beacon pair exactly, and stacks the levels.
// Zones are built in parallel; the result is the same for any thread count.
// The per-zone kernels come from zonepath::update (linked privately), the
// same code that updates changing worlds at runtime.
//
//   BuildOptions options;
//   options.params.zone_size = 32;
//   options.threads = 2;
//   BuildReport report;
//   ASSIGN_OR_RETURN(World world, BuildWorld(std::move(grid), options,
//   &report)); RETURN_IF_ERROR(SaveWorldFile(world, "map.zpw"));
#ifndef ZONEPATH_OFFLINE_BUILD_WORLD_H_
#define ZONEPATH_OFFLINE_BUILD_WORLD_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "zonepath/grid/grid.h"
#include "zonepath/world/world.h"

namespace zonepath {

struct BuildOptions {
  BuildParams params;
  // Worker threads; 0 = all hardware threads; at most kMaxThreads (256,
  // parallel_chunks.h), a larger count is clamped.
  int threads = 0;
  // Called as work completes: (stage name, done, total). May be called from
  // worker threads, one call at a time.
  std::function<void(const std::string& stage, int64_t done, int64_t total)>
      progress;
  // Precompute the connection tables of levels >= 3 (world/
  // connection_tables.h): planners connect endpoints to those levels by a
  // look-up instead of a search, for ~16 % more world memory (README,
  // "Connection tables"). Worlds with fewer levels have none.
  bool connection_tables = true;
};

struct LevelReport {
  int64_t zones = 0;
  int64_t beacons = 0;  // nodes of the level
  int64_t edges = 0;    // directed edges (each undirected edge counts twice)
  absl::Duration time;
};

struct BuildReport {
  std::vector<LevelReport> levels;
  absl::Duration tables_time;  // connection tables (included in `time`)
  absl::Duration time;
  int threads = 0;
};

// Checks the parameters (ranges as documented in BuildParams) as far as
// they do not depend on the grid: BuildWorld checks again once an automatic
// zone size is resolved (a beacon_spacing under zone size / 8 may pass
// here and be refused there).
absl::Status ValidateBuildParams(const BuildParams& params);

absl::StatusOr<World> BuildWorld(Grid grid, const BuildOptions& options,
                                 BuildReport* report = nullptr);

// The abstraction BuildWorld would put in the World, flat and in the
// world file's canonical layout. For builds that write a file and do not
// plan: SaveWorldFile(grid, flat, path) then writes the same bytes as
// SaveWorldFile(BuildWorld(...)) without a second copy of the abstraction
// (the World's shared, paged one) in memory.
//
//   ASSIGN_OR_RETURN(Abstraction flat, BuildFlatAbstraction(grid, options));
//   RETURN_IF_ERROR(SaveWorldFile(grid, flat, "map.zpw"));
absl::StatusOr<Abstraction> BuildFlatAbstraction(const Grid& grid,
                                                 const BuildOptions& options,
                                                 BuildReport* report = nullptr);

}  // namespace zonepath

#endif  // ZONEPATH_OFFLINE_BUILD_WORLD_H_
