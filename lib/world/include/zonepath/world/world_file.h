// The world file: one self-contained, versioned binary holding the grid and
// every abstraction level.
//
// Layout (little-endian): a fixed header (magic "ZONEPATH", format version,
// endianness mark, build parameters, grid size, section count, CRC-32 of the
// header), a section table (kind, level, offset, size, CRC-32 of the bytes),
// then the sections: the grid's cost bytes, its component labels
// (Grid::StoredComponents, version 3), the beacon cells, and per level the
// CSR arrays of AbstractLevel (plus cached paths when built with them).
// Sections are the canonical flat arrays (Abstraction) byte for byte and
// start at 4096-byte offsets (format version 2), so loading maps the file
// read-only, and the grid's costs and labels and the abstraction's arrays
// view the mapping (no copy; shared between processes) after validation,
// with no per-edge parsing and no pass over the cells. Saving an updated
// world writes its canonical layout (SharedAbstraction::ToFlat,
// Grid::Components): the same bytes as a full build of its grid. Version 2
// files (no labels) are read by labelling the cells again; version 1 files
// (sections not aligned) by copying.
//
// Loading checks everything before use and returns
//   kDataLoss            truncated file, checksum mismatch, inconsistent data
//   kFailedPrecondition  wrong magic (not a world file), version or endianness
//   kNotFound            missing file
//   kResourceExhausted   the world needs more memory than is available
// with the file name and the failing field in the message. Sizes read from
// the file are checked against the file's real size before any allocation.
//
//   RETURN_IF_ERROR(SaveWorldFile(world, "map.zpw"));      // atomic
//   ASSIGN_OR_RETURN(World loaded, LoadWorldFile("map.zpw"));
#ifndef ZONEPATH_WORLD_WORLD_FILE_H_
#define ZONEPATH_WORLD_WORLD_FILE_H_

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "zonepath/world/world.h"

namespace zonepath {

// Version 5: the header's beacon_spacing (reserved and 0 before).
// Version 6: connection tables (world/connection_tables.h).
inline constexpr uint32_t kWorldFormatVersion = 6;
// The oldest version this build reads (1: sections not page-aligned).
inline constexpr uint32_t kOldestWorldFormatVersion = 1;

struct LoadOptions {
  // CRC-32 of the header and every section, streamed over the mapping
  // (README, "World files": what it costs). Off, the structural checks the
  // planner relies on still run; `zonepath inspect --verify` checks later.
  bool verify_checksums = true;
  // That every abstract edge has a way below it inside its zone (level 1:
  // a union-find over the cells of every zone with intra-zone edges,
  // O(cells); level k: over level k-1's edges). Off by default: the planner
  // turns an edge it cannot refine into a DataLoss status, never an illegal
  // path (tests/hostile), so this only moves the error from the first query
  // that needs the edge to load time. `zonepath inspect --verify` runs it.
  // It also labels the cells again and compares with the stored component
  // labels (version 3; loading checks only their structure: labels that
  // disagree with the cells give wrong reachability answers, never an
  // out-of-bounds read or an illegal path).
  bool verify_refinement = false;
  // Threads for the checksums and the per-edge checks of a large file (the
  // caller's included; <= 0: one per hardware thread). Files under a few
  // MB are checked on the caller's thread alone. Errors name the same
  // field whatever the count.
  int threads = 0;
  // Map the file read-only and let the grid's costs view the mapping
  // (shared with every process that maps the file; a change copies the
  // page). Off: read the file into memory and copy (one code path after).
  bool map = true;
  // Refuse up front (ResourceExhausted, naming the bytes) when the world
  // would need more than this many bytes; 0: MemAvailable from
  // /proc/meminfo (no check where it cannot be read).
  uint64_t memory_limit = 0;
};

// Bytes of each part of a serialised world, for reports.
struct WorldFileSizes {
  uint64_t total = 0;
  uint64_t header = 0;  // header and section table
  uint64_t grid = 0;
  uint64_t components = 0;   // the grid's component labels (version 3)
  uint64_t abstraction = 0;  // beacons and level arrays
  uint64_t cached_paths = 0;
  uint64_t connection_tables = 0;
  uint32_t format_version = kWorldFormatVersion;  // of the file read
};

std::string SerializeWorld(const World& world, WorldFileSizes* sizes = nullptr);
// `name` is used in error messages. verify_checksums = false is for fuzzing
// the structural validation behind the checksums; it must still never crash.
absl::StatusOr<World> ParseWorld(absl::string_view bytes,
                                 absl::string_view name = "<memory>",
                                 bool verify_checksums = true);
// The same validation as LoadWorldFile (options.map and memory_limit do not
// apply: the bytes are copied).
absl::StatusOr<World> ParseWorld(absl::string_view bytes,
                                 absl::string_view name,
                                 const LoadOptions& options);

// Writes the file atomically (temporary file, then rename), streaming the
// arrays: no copy of the file is held in memory.
absl::Status SaveWorldFile(const World& world, const std::string& path,
                           WorldFileSizes* sizes = nullptr);
// The same file for a grid and the canonical flat abstraction the offline
// build produces (the bytes SaveWorldFile(World(grid, flat)) writes),
// without making the World: a build can write what it built and hold no
// second copy of the abstraction.
// With `tables` (null: none), the connection tables of that abstraction
// (update/build_connection_tables.h).
absl::Status SaveWorldFile(const Grid& grid, const Abstraction& flat,
                           const std::string& path,
                           WorldFileSizes* sizes = nullptr,
                           const ConnectionTables* tables = nullptr);
absl::StatusOr<World> LoadWorldFile(const std::string& path,
                                    WorldFileSizes* sizes = nullptr);
absl::StatusOr<World> LoadWorldFile(const std::string& path,
                                    const LoadOptions& options,
                                    WorldFileSizes* sizes = nullptr);

// A world file without the grid's sections (cost bytes, component labels),
// for containers that derive the grid when loading: an agent world holds one
// terrain and, per class, such a file whose grid is the class grid
// (zonepath/agents/agent_world.h). Not loadable by LoadWorldFile.
absl::Status WriteWorldWithoutGrid(const World& world, std::ostream& out,
                                   WorldFileSizes* sizes = nullptr);
// The same for a grid, a flat abstraction and its tables (null: none):
// only the grid's size is written. For a decoded compact abstraction
// (compact_abstraction.h), whose bytes ParseWorldOnGrid then checks.
absl::Status WriteWorldWithoutGrid(const Grid& grid, const Abstraction& flat,
                                   const ConnectionTables* tables,
                                   std::ostream& out);
// Parses what WriteWorldWithoutGrid wrote, with the same checks as
// ParseWorld, on `grid` (the grid it was built on; a file of another size or
// one that holds grid sections is DataLoss). With a `keeper` that owns the
// memory `bytes` lives in (a mapped file), the world's arrays view `bytes`
// in place (which must then start on a kSectionAlign boundary of the
// mapping); without, they are copied.
absl::StatusOr<World> ParseWorldOnGrid(
    absl::string_view bytes, absl::string_view name, const LoadOptions& options,
    Grid grid, std::shared_ptr<const void> keeper = nullptr,
    WorldFileSizes* sizes = nullptr);

// Byte offsets at which sections start (for truncation tests).
std::vector<uint64_t> WorldSectionOffsets(absl::string_view bytes);

}  // namespace zonepath

#endif  // ZONEPATH_WORLD_WORLD_FILE_H_
