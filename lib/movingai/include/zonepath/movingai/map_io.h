// Reading and writing MovingAI `.map` files.
//
// Format: "type octile", "height H", "width W", "map", then H rows of W
// characters; lines may end in "\r\n". Characters are mapped to terrain costs
// by a TerrainLegend. Every problem is reported as an InvalidArgument status
// "FILE:LINE: what is wrong"; nothing is returned for a bad file, and memory
// grows only with the rows actually read, never with a header's claim.
//
//   ASSIGN_OR_RETURN(Grid grid, ReadMapFile("den520d.map"));
//   RETURN_IF_ERROR(WriteMapFile(grid, "copy.map"));
#ifndef ZONEPATH_MOVINGAI_MAP_IO_H_
#define ZONEPATH_MOVINGAI_MAP_IO_H_

#include <istream>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "zonepath/grid/grid.h"
#include "zonepath/movingai/terrain_legend.h"

namespace zonepath {

absl::StatusOr<Grid> ReadMapFile(
    const std::string& path,
    const TerrainLegend& legend = TerrainLegend::Weighted());
// `name` is used in error messages in place of a file name.
absl::StatusOr<Grid> ReadMap(
    std::istream& in, absl::string_view name,
    const TerrainLegend& legend = TerrainLegend::Weighted());
absl::StatusOr<Grid> ReadMapString(
    absl::string_view text,
    const TerrainLegend& legend = TerrainLegend::Weighted());

// Writes the grid; fails if some cost has no character in the legend.
absl::Status WriteMap(const Grid& grid, std::ostream& out,
                      const TerrainLegend& legend = TerrainLegend::Weighted());
// Atomic: writes a temporary file and renames it to `path`.
absl::Status WriteMapFile(
    const Grid& grid, const std::string& path,
    const TerrainLegend& legend = TerrainLegend::Weighted());

}  // namespace zonepath

#endif  // ZONEPATH_MOVINGAI_MAP_IO_H_
