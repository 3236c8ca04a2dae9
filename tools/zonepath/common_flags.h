// Flags shared by several zonepath subcommands (defined in common_flags.cc).
#ifndef ZONEPATH_TOOLS_ZONEPATH_COMMON_FLAGS_H_
#define ZONEPATH_TOOLS_ZONEPATH_COMMON_FLAGS_H_

#include <optional>
#include <string>

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"
#include "zonepath/grid/grid.h"
#include "zonepath/grid/moves.h"
#include "zonepath/world/world.h"
#include "zonepath/world/world_file.h"

ABSL_DECLARE_FLAG(bool, json);
// map_flags.cc (commands that read a .map file).
ABSL_DECLARE_FLAG(std::string, legend);
ABSL_DECLARE_FLAG(std::string, connectivity);
// threads_flag.cc (build, scen). Unset: the command's default (build: all
// cores; scen: 1).
ABSL_DECLARE_FLAG(std::optional<int32_t>, threads);
// load_flags.cc (commands that load a world file).
ABSL_DECLARE_FLAG(bool, checksums);
ABSL_DECLARE_FLAG(bool, verify);

namespace zonepath::cli {

// World loading as the flags ask (--checksums, --verify).
LoadOptions LoadOptionsFromFlags();

// Reads a map file with the legend chosen by --legend.
absl::StatusOr<Grid> LoadMapFromFlags(const std::string& path);
// The --connectivity flag ("8" or "4"; 8 when not given).
absl::StatusOr<Connectivity> ConnectivityFromFlags();
// The connectivity of `world` (loaded from `path`); an error if
// --connectivity was given and differs.
absl::StatusOr<Connectivity> ConnectivityForWorld(const World& world,
                                                  const std::string& path);

}  // namespace zonepath::cli

#endif  // ZONEPATH_TOOLS_ZONEPATH_COMMON_FLAGS_H_
