#include "common_flags.h"

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/movingai/map_io.h"
#include "zonepath/movingai/terrain_legend.h"

ABSL_FLAG(bool, json, false, "print the result as one JSON object");
ABSL_FLAG(std::string, legend, "weighted",
          "map characters: 'movingai', 'weighted' (adds digits 1-9 as costs), "
          "optionally followed by ,CHAR=COST entries (0 = blocked)");
ABSL_FLAG(std::string, connectivity, "8",
          "movement: 8 (octile, no corner cutting) or 4");

namespace zonepath::cli {

absl::StatusOr<Grid> LoadMapFromFlags(const std::string& path) {
  ASSIGN_OR_RETURN(TerrainLegend legend,
                   TerrainLegend::Parse(absl::GetFlag(FLAGS_legend)));
  return ReadMapFile(path, legend);
}

absl::StatusOr<Connectivity> ConnectivityFromFlags() {
  const std::string name = absl::GetFlag(FLAGS_connectivity);
  std::optional<Connectivity> c = ParseConnectivity(name);
  if (!c.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--connectivity must be 8 or 4, got '", name, "'"));
  }
  return *c;
}

}  // namespace zonepath::cli
