// Synthetic grid worlds for tests and benchmarks, deterministic by seed
// (same seed, same size, same kind: same grid, on any platform).
//
//   MapGenOptions options{.kind = MapKind::kRooms, .width = 4096,
//                         .height = 4096, .seed = 7};
//   ASSIGN_OR_RETURN(Grid grid, GenerateMap(options));
//
// Kinds:
//   rooms   square rooms (side `feature`, default 32) with 1-cell walls and
//           doors; every room reachable
//   maze    a perfect maze with corridors `feature` cells wide (default 1)
//   random  each cell blocked with probability `density` (default 0.25)
//   terrain open weighted terrain: grass (cost 2) with forests (4), swamps
//           (7), lakes (blocked) and roads (1)
//   mixed   terrain TYPES for agent classes (data/agents/example.agents):
//           ground, roads, forests, hills, lakes of deep water ringed by
//           shallows, and 2-cell walls every `feature` cells (default 64,
//           at least 24) with passages of widths 1, 2, 3 and 4 in every
//           wall segment; kMixedChars gives its map characters
#ifndef ZONEPATH_MAPGEN_GENERATORS_H_
#define ZONEPATH_MAPGEN_GENERATORS_H_

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "zonepath/grid/grid.h"

namespace zonepath {

enum class MapKind { kRooms, kMaze, kRandom, kTerrain, kMixed };

// Terrain types of the mixed kind (the type bytes of example.agents).
inline constexpr uint8_t kMixedGround = 1, kMixedRoad = 2, kMixedForest = 3,
                         kMixedHills = 4, kMixedShallow = 5, kMixedDeep = 6;
// Map character of mixed type t at index t - 1 ('@' blocked), as in
// example.agents.
inline constexpr char kMixedChars[] = ".=T^~W";
std::optional<MapKind> ParseMapKind(absl::string_view name);
absl::string_view MapKindName(MapKind kind);

struct MapGenOptions {
  MapKind kind = MapKind::kRooms;
  int64_t width = 256;  // cells, 1..Grid::kMaxSide
  int64_t height = 256;
  uint64_t seed = 1;
  int feature = 0;        // room side or corridor width; 0 = kind's default
  double density = 0.25;  // random: blocked fraction in [0, 1]
};

absl::StatusOr<Grid> GenerateMap(const MapGenOptions& options);

}  // namespace zonepath

#endif  // ZONEPATH_MAPGEN_GENERATORS_H_
