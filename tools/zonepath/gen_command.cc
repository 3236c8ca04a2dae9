// `zonepath gen`: writes a deterministic synthetic world as a .map file.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "commands.h"
#include "common_flags.h"
#include "memory_budget.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/movingai/map_io.h"
#include "zonepath/movingai/terrain_legend.h"

ABSL_FLAG(std::string, kind, "rooms", "rooms, maze, random, terrain or mixed");
ABSL_FLAG(int64_t, width, 256, "width in cells");
ABSL_FLAG(int64_t, height, 256, "height in cells");
ABSL_FLAG(uint64_t, seed, 1, "random seed (same seed, same map)");
ABSL_FLAG(int32_t, feature, 0,
          "room side (rooms) or corridor width (maze); 0 = default");
ABSL_FLAG(double, density, 0.25, "blocked fraction for random maps");

namespace zonepath::cli {
namespace {

absl::Status Gen(const std::string& out_path) {
  MapGenOptions options;
  const std::string kind = absl::GetFlag(FLAGS_kind);
  std::optional<MapKind> parsed = ParseMapKind(kind);
  if (!parsed.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--kind: unknown kind '", kind,
                     "' (rooms, maze, random, terrain, mixed)"));
  }
  options.kind = *parsed;
  options.width = absl::GetFlag(FLAGS_width);
  options.height = absl::GetFlag(FLAGS_height);
  options.seed = absl::GetFlag(FLAGS_seed);
  options.feature = absl::GetFlag(FLAGS_feature);
  options.density = absl::GetFlag(FLAGS_density);
  if (absl::Status size = Grid::CheckSize(options.width, options.height);
      !size.ok()) {
    return absl::OutOfRangeError(
        absl::StrCat("--width/--height: ", size.message()));
  }
  // The generator's cost vector and the grid's pages (a byte a cell each,
  // both alive while the grid copies them), the component labels (up to a
  // byte a cell on mazes) and scratch: measured peaks are 1.97 (terrain
  // 65536 x 32768) to 2.2 (rooms 32768²) bytes a cell; 4 leaves room.
  // Rows of text are written one at a time.
  RETURN_IF_ERROR(CheckAvailableMemory(
      static_cast<uint64_t>(options.width) * options.height * 4,
      absl::StrCat("a ", options.width, "x", options.height, " map"),
      absl::GetFlag(FLAGS_memory_limit)));
  ASSIGN_OR_RETURN(Grid grid, GenerateMap(options));
  TerrainLegend legend = TerrainLegend::Weighted();
  if (options.kind == MapKind::kMixed) {
    // Terrain types, written with the characters of example.agents.
    legend = TerrainLegend::MovingAi();
    for (int t = 1; kMixedChars[t - 1] != '\0'; ++t) {
      legend.Set(kMixedChars[t - 1], static_cast<uint8_t>(t));
    }
  }
  RETURN_IF_ERROR(WriteMapFile(grid, out_path, legend));
  std::printf("%s: %s %dx%d, %lld passable cells, %u components\n",
              out_path.c_str(), kind.c_str(), grid.width(), grid.height(),
              static_cast<long long>(grid.passable_count()),
              grid.component_count());
  return absl::OkStatus();
}

int Run(const std::vector<std::string>& args) {
  absl::Status status = Gen(args[0]);
  return status.ok() ? kExitOk : FailBadInput(status);
}

}  // namespace

const Command kGenCommand = {
    "gen",
    "Generate a synthetic world (deterministic by seed) as a .map file.",
    "usage: zonepath gen OUT.map [--kind rooms|maze|random|terrain|mixed] "
    "[--width W] [--height H] [--seed S] [--feature F] [--density D] "
    "[--memory_limit BYTES]\n"
    "Weighted terrain is written with digits 1-9 as costs; mixed terrain "
    "types with the characters of data/agents/example.agents (read it with "
    "--agents).",
    {"gen_command.cc", "memory_limit_flag.cc"},
    1,
    1,
    &Run};

}  // namespace zonepath::cli
